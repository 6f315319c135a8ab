package dev.firedrill.report;

import dev.firedrill.experiment.Numbers;
import dev.firedrill.report.DrillRecord.Alert;
import dev.firedrill.report.DrillRecord.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What the evidence says, shared by every format: each SLI's course and the gaps with their
 * actions.
 */
final class Findings {

  /**
   * One SLI through the drill: its last value before injection, its worst while the faults were on
   * (highest for an upper bound, lowest for a lower bound), and its last value measured.
   */
  record SliCourse(
      String name,
      Range range,
      OptionalDouble before,
      OptionalDouble worstDuring,
      int breaches,
      OptionalDouble firstBreachS,
      OptionalDouble last) {}

  /** A place the system or its observability fell short, and what to do about it. */
  record Gap(String text, String action) {}

  private Findings() {}

  static List<SliCourse> courses(DrillRecord record) {
    List<SliCourse> courses = new ArrayList<>();
    for (DrillRecord.Sli sli : record.experiment().slis()) {
      courses.add(course(record, sli.name(), sli.range()));
    }
    return courses;
  }

  private static SliCourse course(DrillRecord record, String name, Range range) {
    OptionalDouble before = OptionalDouble.empty();
    OptionalDouble worst = OptionalDouble.empty();
    OptionalDouble first = OptionalDouble.empty();
    OptionalDouble last = OptionalDouble.empty();
    int breaches = 0;
    double injected = record.injectedAt().map(record::seconds).orElse(0.0);
    for (Sample sample : record.samples()) {
      OptionalDouble value =
          sample.value(name).map(DrillRecord.Value::value).orElse(OptionalDouble.empty());
      boolean breach = sample.value(name).map(v -> "breach".equals(v.status())).orElse(false);
      if (value.isEmpty()) {
        continue;
      }
      last = value;
      switch (sample.phase()) {
        case "before" -> before = value;
        case "during" -> {
          worst = worse(worst, value.getAsDouble(), range);
          if (breach) {
            breaches++;
            if (first.isEmpty()) {
              first = OptionalDouble.of(record.seconds(sample.at()) - injected);
            }
          }
        }
        default -> {}
      }
    }
    return new SliCourse(name, range, before, worst, breaches, first, last);
  }

  private static OptionalDouble worse(OptionalDouble current, double value, Range range) {
    if (current.isEmpty()) {
      return OptionalDouble.of(value);
    }
    boolean lowerIsWorse = range.lowerBoundOnly();
    return OptionalDouble.of(
        lowerIsWorse
            ? Math.min(current.getAsDouble(), value)
            : Math.max(current.getAsDouble(), value));
  }

  static List<Gap> gaps(DrillRecord record) {
    List<Gap> gaps = new ArrayList<>();
    String faults =
        String.join(
            ", ", record.faults().stream().map(DrillRecord.Fault::kind).distinct().toList());
    for (SliCourse c : courses(record)) {
      if (c.breaches() > 0) {
        gaps.add(
            new Gap(
                c.name()
                    + " left its healthy range ("
                    + c.range().text()
                    + ") while the faults were on: "
                    + (c.range().lowerBoundOnly() ? "lowest " : "worst ")
                    + Numbers.format(c.worstDuring().getAsDouble())
                    + ", first "
                    + Numbers.format(TimelineSvg.round(c.firstBreachS().getAsDouble()))
                    + "s after injection, in "
                    + c.breaches()
                    + " measurement"
                    + (c.breaches() == 1 ? "" : "s"),
                "Find why "
                    + c.name()
                    + " leaves "
                    + c.range().text()
                    + " under "
                    + faults
                    + ", and fix it"));
      }
    }
    record
        .abortReason()
        .ifPresent(
            reason ->
                gaps.add(
                    new Gap(
                        "The drill was aborted: "
                            + reason
                            + "; the system did not contain the fault within the guard",
                        "Contain "
                            + faults
                            + " so the abort guard does not have to stop the drill")));
    if (record.rollbackAt().isPresent()
        && record.recoveredAt().isEmpty()
        && !DrillRecord.UNFINISHED.equals(record.verdict())) {
      gaps.add(
          new Gap(
              "The system did not return to steady state within "
                  + dev.firedrill.time.Durations.format(record.experiment().recovery())
                  + " after the rollback",
              "Find why the system stays outside its steady state after "
                  + faults
                  + " is removed"));
    }
    for (DrillRecord.Fault f : record.faults()) {
      if (f.injectedAt().isPresent() && !f.reverted()) {
        gaps.add(
            new Gap(
                "Fault " + f.kind() + " was not reverted: " + f.revertDetail(),
                f.manualCommand()
                    .map(c -> "Revert by hand: " + c)
                    .orElse("Revert " + f.kind() + " by hand")));
      }
    }
    for (Alert a : record.detection().map(DrillRecord.Detection::alerts).orElse(List.of())) {
      if (!a.held()) {
        gaps.add(new Gap(a.describe() + ": " + a.reason(), action(a)));
      }
    }
    return gaps;
  }

  private static String action(Alert a) {
    String within = Numbers.format(a.withinS()) + "s";
    return switch (a.failureKind().orElse("")) {
      case "fired" -> "Keep " + a.describe() + " silent under this fault, or expect it to fire";
      case "missed" ->
          "Make "
              + a.describe()
              + " fire within "
              + within
              + " of this fault"
              + a.floorS().stream()
                  .mapToObj(f -> " (its floor is " + Numbers.format(f) + "s)")
                  .findFirst()
                  .orElse("");
      case "late" ->
          "Bring "
              + a.describe()
              + "'s time to detect under "
              + within
              + a.floorS().stream()
                  .mapToObj(f -> " (its floor is " + Numbers.format(f) + "s)")
                  .findFirst()
                  .orElse("");
      case "misrouted" -> "Fix the route of " + a.describe() + ": " + a.receiverDetail();
      default -> "Fix the links of " + a.describe() + ": " + a.runbookDetail();
    };
  }
}
