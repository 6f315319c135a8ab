package dev.firedrill.marker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.experiment.FaultSpec;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MarkerTargetTest {

  private static final FaultSpec SPEC = new FaultSpec.CpuBurn(1, Optional.empty());

  private static List<String> pods(int count) {
    return IntStream.range(0, count).mapToObj(i -> "checkout-7d9f8b6c4d-" + (10000 + i)).toList();
  }

  @Test
  void beforeInjectionTheTargetIsWhatTheFaultTouches() {
    assertThat(MarkerTarget.of(SPEC, List.of())).isEqualTo(SPEC.targetName());
  }

  @Test
  void afterInjectionItNamesTheSelectedPods() {
    assertThat(MarkerTarget.of(SPEC, pods(2)))
        .isEqualTo(SPEC.targetName() + ": checkout-7d9f8b6c4d-10000,checkout-7d9f8b6c4d-10001");
  }

  @Test
  void manyPodsKeepWholeNamesWhileTheyFitAndCountTheRest() {
    String target = MarkerTarget.of(SPEC, pods(200));
    assertThat(target.length()).isLessThanOrEqualTo(MarkerTarget.MAX_LENGTH);
    int kept =
        (MarkerTarget.MAX_LENGTH - SPEC.targetName().length() - 2 - ",+196 more".length()) / 27;
    assertThat(target)
        .startsWith(SPEC.targetName() + ": checkout-7d9f8b6c4d-10000,")
        .endsWith(",+" + (200 - kept) + " more");
  }

  @Test
  void aNameTooLongForTheLabelIsCountedNotCut() {
    String target = MarkerTarget.of(SPEC, List.of("x".repeat(200)));
    assertThat(target).isEqualTo(SPEC.targetName() + ": +1 more");
  }

  @Test
  void tagsAndAttributesKeepTenNamesAndCountTheRest() {
    assertThat(MarkerTarget.names(pods(3))).isEqualTo(pods(3));
    List<String> names = MarkerTarget.names(pods(25));
    assertThat(names).hasSize(MarkerTarget.MAX_NAMES + 1);
    assertThat(names.subList(0, MarkerTarget.MAX_NAMES)).isEqualTo(pods(MarkerTarget.MAX_NAMES));
    assertThat(names.get(MarkerTarget.MAX_NAMES)).isEqualTo("+15 more");
  }
}
