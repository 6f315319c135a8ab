package dev.firedrill.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.firedrill.time.VirtualClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LiveStatusTest {

  private final VirtualClock clock = VirtualClock.at("2026-11-29T21:00:00Z");
  private final StringWriter screen = new StringWriter();

  @Test
  void onATerminalEveryLineClearsTheStatusPrintsAndRedrawsIt() {
    LiveStatus status = new LiveStatus(new PrintWriter(screen), true, Duration.ofSeconds(20), clock, 200);
    PrintWriter events = status.writer();

    events.println("receiver: Alertmanager webhooks on http://127.0.0.1:1234");
    events.println("+2.5s during breach: error_ratio 0.06 outside <= 0.01, p99 0.2 <= 0.25, burn_rate 60 outside <= 14.4");
    clock.advance(Duration.ofSeconds(1));
    status.redraw();
    events.println("+3.6s detect CheckoutErrorBudgetBurn{service=\"checkout\"} pending, active since +0.7s after injection");
    events.println("+3.7s detect CheckoutOrdersPending firing, active since +0.8s after injection");
    events.println("+4.0s detect CheckoutErrorBudgetBurn{service=\"checkout\"} firing");
    status.close();

    String s0 = "plan 0.0s/20s | alerts: 0 pending, 0 firing";
    String s1 = "during 2.5s/20s | error_ratio=0.06! p99=0.2 burn_rate=60! | alerts: 0 pending, 0 firing";
    String s2 = "during 3.5s/20s | error_ratio=0.06! p99=0.2 burn_rate=60! | alerts: 0 pending, 0 firing";
    String s3 = "detect 3.6s/20s | error_ratio=0.06! p99=0.2 burn_rate=60! | alerts: 1 pending, 0 firing";
    String s4 = "detect 3.7s/20s | error_ratio=0.06! p99=0.2 burn_rate=60! | alerts: 1 pending, 1 firing";
    String s5 = "detect 4.0s/20s | error_ratio=0.06! p99=0.2 burn_rate=60! | alerts: 0 pending, 2 firing";
    assertThat(screen.toString()).isEqualTo(
        "receiver: Alertmanager webhooks on http://127.0.0.1:1234\n" + s0
        + clear(s0) + "+2.5s during breach: error_ratio 0.06 outside <= 0.01, p99 0.2 <= 0.25, burn_rate 60 outside <= 14.4\n" + s1
        + clear(s1) + s2
        + clear(s2) + "+3.6s detect CheckoutErrorBudgetBurn{service=\"checkout\"} pending, active since +0.7s after injection\n" + s3
        + clear(s3) + "+3.7s detect CheckoutOrdersPending firing, active since +0.8s after injection\n" + s4
        + clear(s4) + "+4.0s detect CheckoutErrorBudgetBurn{service=\"checkout\"} firing\n" + s5
        + clear(s5));
  }

  @Test
  void elsewhereItPrintsThePlainLinesAndNothingElse() {
    LiveStatus status = new LiveStatus(new PrintWriter(screen), false, Duration.ofSeconds(20), clock, 200);
    status.startTicking(Duration.ofMillis(1));

    status.writer().println("+0.1s before ok: error_ratio 0 <= 0.01");
    status.writer().print("journal: ");
    status.writer().println("/tmp/x.json");
    status.close();

    assertThat(screen.toString()).isEqualTo("+0.1s before ok: error_ratio 0 <= 0.01\njournal: /tmp/x.json\n");
  }

  @Test
  void aStatusWiderThanTheTerminalIsCutSoItNeverWraps() {
    LiveStatus status = new LiveStatus(new PrintWriter(screen), true, Duration.ofSeconds(20), clock, 24);

    assertThat(status.status()).isEqualTo("plan 0.0s/20s | alerts~").hasSize(23);
  }

  /** What the status line leaves when it is erased: blanks over it, the cursor back at the start. */
  private static String clear(String status) {
    return "\r" + " ".repeat(status.length()) + "\r";
  }
}
