package dev.firedrill.killmatrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.bench.BenchReport;
import dev.firedrill.testing.DemoStack;
import dev.firedrill.testing.Results;
import dev.firedrill.testing.SyntheticService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill matrix's long run ({@code bin/bench KillMatrix}): 500 trials by default ({@code
 * -Dkillmatrix.bench.trials=N}, {@code -Dkillmatrix.seed=S}); the figures go to {@code
 * target/bench/KillMatrixBenchmark.txt} and docs/reliability.md. It asserts what the short run in
 * CI asserts (nothing left behind, every journal whole, cleanup truthful), never a time.
 */
class KillMatrixBenchmark {

  static final long SEED = Long.getLong("killmatrix.seed", 2026);
  static final int LANES = Integer.getInteger("killmatrix.lanes", 3);
  static final int TRIALS = Integer.getInteger("killmatrix.bench.trials", 500);

  /** With {@code -Dkillmatrix.bench.minutes=M}: as many of the trials as start within M minutes. */
  static final Duration BUDGET =
      Duration.ofMinutes(Long.getLong("killmatrix.bench.minutes", 24 * 60));

  @RegisterExtension static final DemoStack stack = new DemoStack(List.of(MatrixLab.RULES));

  @TempDir Path dir;

  @Test
  void killMatrix() throws Exception {
    stack
        .prometheus()
        .awaitQuery(SyntheticService.ERROR_RATIO, Results.valueNear(0, 0), Duration.ofSeconds(30));
    KillMatrix.Figures figures;
    try (MatrixLab lab = new MatrixLab(stack, dir)) {
      figures = KillMatrix.run(lab, dir, SEED, TRIALS, LANES, BUDGET, KillMatrixIT::print);
    }
    BenchReport report = new BenchReport("KillMatrixBenchmark");
    figures.lines().forEach(line -> report.line("%s", line));
    figures.problems().forEach(problem -> report.line("problem: %s", problem));
    report.finish();

    assertThat(figures.results()).isNotEmpty();
    assertThat(figures.problems()).isEmpty();
    assertThat(figures.leftBehind()).isZero();
    assertThat(figures.unreadableJournals()).isZero();
  }
}
