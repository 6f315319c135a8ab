package dev.firedrill.killmatrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill matrix's short seeded run in CI: every fault kind this machine can drill, SIGKILLed at
 * every phase boundary, nothing left behind. {@code -Dkillmatrix.seed} repeats a run; {@code
 * bin/bench KillMatrix} is the long one.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class KillMatrixIT {

  static final long SEED = Long.getLong("killmatrix.seed", 22);
  static final int LANES = Integer.getInteger("killmatrix.lanes", 3);
  static final int TRIALS = Integer.getInteger("killmatrix.trials", 40);

  @RegisterExtension static final DemoStack stack = new DemoStack(List.of(MatrixLab.RULES));

  @TempDir Path dir;

  @Test
  void noKillAnywhereLeavesAFaultBehindOrAJournalUnreadable() throws Exception {
    stack
        .prometheus()
        .awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 0), Duration.ofSeconds(30));
    KillMatrix.Figures figures;
    try (MatrixLab lab = new MatrixLab(stack)) {
      figures =
          KillMatrix.run(lab, dir, SEED, TRIALS, LANES, Duration.ofDays(1), KillMatrixIT::print);
    }
    figures.lines().forEach(System.out::println);

    assertThat(figures.problems()).isEmpty();
    assertThat(figures.results()).hasSize(TRIALS);
    assertThat(figures.leftBehind()).isZero();
    assertThat(figures.unreadableJournals()).isZero();
    // The seeded points really spread over the drill: each phase was hit at least once.
    assertThat(figures.results().stream().map(Trial.Result::landed).distinct())
        .containsAll(
            Arrays.stream(KillPoint.Phase.values())
                .filter(p -> p != KillPoint.Phase.FINISHED)
                .toList());
  }

  static void print(Trial.Result r) {
    System.out.printf(
        "KillMatrix trial %d: %s aimed %s, landed %s; cleanup %s exit %d; clean %.1f s after the"
            + " kill; verdict %s%s%n",
        r.number(),
        r.kind().kind,
        r.aimed(),
        r.landed().words,
        r.cleanupAt(),
        r.cleanupExit(),
        r.killToClean().toMillis() / 1000.0,
        r.verdict(),
        r.problems().isEmpty() ? "" : "; PROBLEMS: " + r.problems());
  }
}
