package dev.firedrill.embedded.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.promql.model.LabelSet;
import org.junit.jupiter.api.Test;

class TargetLabelsTest {

  private static final LabelSet TARGET =
      LabelSet.of("job", "api", "instance", "127.0.0.1:9100", "zone", "eu");

  @Test
  void withoutHonorLabelsTheTargetWinsAndExposedValuesMoveToExported() {
    LabelSet exposed =
        LabelSet.of("__name__", "m", "job", "batch", "exported_job", "taken", "instance", "pod-1");
    assertThat(TargetLabels.apply(exposed, TARGET, false))
        .isEqualTo(
            LabelSet.of(
                "__name__",
                "m",
                "job",
                "api",
                "instance",
                "127.0.0.1:9100",
                "zone",
                "eu",
                "exported_exported_job",
                "batch",
                "exported_job",
                "taken",
                "exported_instance",
                "pod-1"));
  }

  @Test
  void withHonorLabelsTheExposedValuesWinAndMissingOnesComeFromTheTarget() {
    LabelSet exposed = LabelSet.of("__name__", "m", "job", "batch");
    assertThat(TargetLabels.apply(exposed, TARGET, true))
        .isEqualTo(
            LabelSet.of(
                "__name__", "m", "job", "batch", "instance", "127.0.0.1:9100", "zone", "eu"));
  }
}
