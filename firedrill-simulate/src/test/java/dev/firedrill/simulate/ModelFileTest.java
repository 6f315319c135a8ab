package dev.firedrill.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ModelFileTest {

  @Test
  void keysLeftOutKeepTheLabsValues() throws Exception {
    LabModel model =
        ModelFile.parse(
            "model.yaml",
            """
        rate: 50
        payments: {error_ratio: 0.1, latency: 40ms}
        """);

    assertThat(model)
        .isEqualTo(
            LabModel.lab()
                .withRate(50)
                .withPayments(
                    new ServiceModel(
                        "payments", 0.1, Duration.ofMillis(40), Duration.ofMillis(2))));
  }

  @Test
  void everyProblemIsReportedWithFileFieldLineAndExpectation() {
    assertThatThrownBy(
            () ->
                ModelFile.parse(
                    "model.yaml",
                    """
        rate: -1
        payments:
          error_ratio: 1.5
          latncy: 40ms
        """))
        .isInstanceOf(ModelException.class)
        .hasMessage(
            """
            model.yaml: /rate: expected a positive number of checkouts a second, such as 20, got "-1" (line 1, column 1)
            model.yaml: /payments/latncy: unknown key; did you mean "latency"? (line 4, column 3)
            model.yaml: /payments/error_ratio: expected a share from 0 to 1, such as 0.1, got "1.5" (line 3, column 3)""");
  }
}
