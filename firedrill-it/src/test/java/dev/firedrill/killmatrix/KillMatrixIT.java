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
 * The kill matrix's short seeded run in CI: every fault kind this machine can drill, three seeded
 * trials each at three kill points, SIGKILLed at every phase boundary, nothing left behind. {@code
 * -Dkillmatrix.seed} repeats a run; {@code bin/bench KillMatrix} is the long one.
 */
@Timeout(value = 25, unit = TimeUnit.MINUTES)
class KillMatrixIT {

  static final long SEED = Long.getLong("killmatrix.seed", 22);
  static final int LANES = Integer.getInteger("killmatrix.lanes", 3);

  /** Seeded trials per kind this machine drills, each kind at as many kill points. */
  static final int PER_KIND = 3;

  /** By default {@link #PER_KIND} for each kind: 45 where the kernel has no netem, else 48. */
  static final Integer TRIALS = Integer.getInteger("killmatrix.trials");

  @RegisterExtension static final DemoStack stack = new DemoStack(List.of(MatrixLab.RULES));

  @TempDir Path dir;

  @Test
  void noKillAnywhereLeavesAFaultBehindOrAJournalUnreadable() throws Exception {
    stack
        .prometheus()
        .awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 0), Duration.ofSeconds(30));
    KillMatrix.Figures figures;
    int trials;
    try (MatrixLab lab = new MatrixLab(stack, dir)) {
      trials = TRIALS != null ? TRIALS : PER_KIND * lab.kinds().size();
      figures =
          KillMatrix.run(lab, dir, SEED, trials, LANES, Duration.ofDays(1), KillMatrixIT::print);
    }
    figures.lines().forEach(System.out::println);

    assertThat(figures.problems()).isEmpty();
    assertThat(figures.results()).hasSize(trials);
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
