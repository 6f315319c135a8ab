package dev.firedrill.fault;

import java.math.BigDecimal;

/**
 * A standalone busy process: spins one thread until its deadline, then exits by itself, so the burn
 * ends on time even when firedrill was killed. {@code --experiment} only labels it for ps; {@code
 * --tag} is how cleanup finds the workers of one run's fault.
 */
public final class CpuBurnWorker {

  private CpuBurnWorker() {}

  public static void main(String[] args) {
    BigDecimal seconds = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (args[i].equals("--seconds")) {
        seconds = new BigDecimal(args[i + 1]);
      }
    }
    if (seconds == null || seconds.signum() <= 0) {
      System.err.println("CpuBurnWorker: expected --seconds <positive number> --experiment <id>");
      System.exit(2);
    }
    long nanos = seconds.movePointRight(9).longValue();
    long start = System.nanoTime();
    long sink = 0;
    while (System.nanoTime() - start < nanos) {
      // Real arithmetic, so the JIT cannot drop the loop body.
      for (int i = 0; i < 100_000; i++) {
        sink = sink * 6364136223846793005L + 1442695040888963407L;
      }
    }
    if (sink == 42) {
      System.out.println(sink);
    }
  }
}
