package dev.firedrill.lab;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link SyntheticService} as its own process, so a drill can pause or kill it:
 * {@code SyntheticServiceMain --port N [--error-ratio R] [--lifetime 1h]}. It exits by itself when
 * its lifetime ends, so a demo that dies leaves nothing running for long.
 */
public final class SyntheticServiceMain {

  private SyntheticServiceMain() {}

  public static void main(String[] args) throws InterruptedException {
    int port = 0;
    double errorRatio = 0;
    Duration lifetime = Duration.ofHours(1);
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[i + 1]);
        case "--error-ratio" -> errorRatio = Double.parseDouble(args[i + 1]);
        case "--lifetime" -> lifetime = dev.firedrill.experiment.Durations.parse(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]
            + " (expected --port, --error-ratio or --lifetime)");
      }
    }
    try (SyntheticService service = SyntheticService.start(port)) {
      service.setErrorRatio(errorRatio);
      System.out.println("serving /metrics on " + service.address());
      System.out.flush();
      new CountDownLatch(1).await(lifetime.toMillis(), TimeUnit.MILLISECONDS);
    }
  }
}
