package dev.firedrill.report;

import dev.firedrill.report.DrillRecord.Sample;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error budget against its ceiling: the plan's worst case (from the budget line the journal
 * keeps) and an estimate of what the drill really spent, from its burn-rate readings.
 */
public record Budget(
    String text,
    OptionalDouble plannedPercent,
    OptionalDouble ceilingPercent,
    OptionalDouble measuredPercent) {

  /** The budget line of {@code ErrorBudget.text()}: its worst-case share and the ceiling. */
  private static final Pattern PLANNED =
      Pattern.compile(
          ".* spends [0-9.]+ min, ([0-9.eE+-]+)% of the budget \\(ceiling ([0-9.eE+-]+)%\\).*");

  static final String BURN_RATE = "burn_rate";

  public static Budget of(DrillRecord record) {
    String text = record.budgetText().orElse("");
    OptionalDouble planned = OptionalDouble.empty();
    OptionalDouble ceiling = OptionalDouble.empty();
    Matcher m = PLANNED.matcher(text);
    if (m.matches()) {
      planned = OptionalDouble.of(Double.parseDouble(m.group(1)));
      ceiling = OptionalDouble.of(Double.parseDouble(m.group(2)));
    }
    OptionalDouble measured =
        record
            .experiment()
            .burnRate()
            .map(burn -> measured(record.samples(), burn.window()))
            .orElse(OptionalDouble.empty());
    return new Budget(text, planned, ceiling, measured);
  }

  public boolean known() {
    return plannedPercent.isPresent() || measuredPercent.isPresent();
  }

  /**
   * A burn rate of b for t seconds spends b·t seconds of a window's budget, whatever the objective;
   * each reading after injection stands for the time since the measurement before it.
   */
  private static OptionalDouble measured(List<Sample> samples, Duration window) {
    double spentSeconds = 0;
    boolean any = false;
    for (int i = 1; i < samples.size(); i++) {
      Sample sample = samples.get(i);
      if (!"during".equals(sample.phase()) && !"after".equals(sample.phase())) {
        continue;
      }
      OptionalDouble burn =
          sample.value(BURN_RATE).map(DrillRecord.Value::value).orElse(OptionalDouble.empty());
      if (burn.isPresent()) {
        double seconds = Duration.between(samples.get(i - 1).at(), sample.at()).toMillis() / 1000.0;
        spentSeconds += burn.getAsDouble() * seconds;
        any = true;
      }
    }
    return any
        ? OptionalDouble.of(100 * spentSeconds / (window.toMillis() / 1000.0))
        : OptionalDouble.empty();
  }
}
