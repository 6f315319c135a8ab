package dev.firedrill.guard;

import dev.firedrill.experiment.Numbers;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One measured value of an SLI or guard at one moment. {@code value} is present for ok and breach,
 * and absent for no-data and error; {@code expectation} is the range it was held to, for messages.
 * {@code control} is the control group's value, read at the same moment, for an SLI that has one.
 */
public record Reading(
    String name,
    Status status,
    OptionalDouble value,
    String expectation,
    String detail,
    OptionalDouble control) {

  public enum Status {
    OK("ok"),
    BREACH("breach"),
    NO_DATA("no-data"),
    ERROR("error");

    private final String text;

    Status(String text) {
      this.text = text;
    }

    public String text() {
      return text;
    }
  }

  public Reading {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
    value = value == null ? OptionalDouble.empty() : value;
    expectation = expectation == null ? "" : expectation;
    detail = detail == null ? "" : detail;
    control = control == null ? OptionalDouble.empty() : control;
    if ((status == Status.OK || status == Status.BREACH) != value.isPresent()) {
      throw new IllegalArgumentException(
          status.text()
              + " reading of "
              + name
              + " must "
              + (value.isPresent() ? "not " : "")
              + "carry a value");
    }
  }

  /** A reading without a control group. */
  public Reading(
      String name, Status status, OptionalDouble value, String expectation, String detail) {
    this(name, status, value, expectation, detail, OptionalDouble.empty());
  }

  public static Reading of(String name, double value, boolean within, String expectation) {
    return new Reading(
        name, within ? Status.OK : Status.BREACH, OptionalDouble.of(value), expectation, "");
  }

  public static Reading noData(String name, String expectation, String detail) {
    return new Reading(name, Status.NO_DATA, OptionalDouble.empty(), expectation, detail);
  }

  public static Reading error(String name, String expectation, String detail) {
    return new Reading(name, Status.ERROR, OptionalDouble.empty(), expectation, detail);
  }

  /**
   * How the console prints it: {@code error_ratio 0.001 <= 0.005}, {@code p95 no data (empty
   * result)}.
   */
  public String text() {
    return switch (status) {
      case OK -> name + " " + valueText() + " " + expectation;
      case BREACH -> name + " " + valueText() + " outside " + expectation;
      case NO_DATA -> name + " no data" + (detail.isEmpty() ? "" : " (" + detail + ")");
      case ERROR -> name + " error: " + detail;
    };
  }

  /** {@code 0.31}, or with a control group {@code 0.31 (control 0.3)}. */
  private String valueText() {
    String own = Numbers.format(value.getAsDouble());
    return control.isPresent()
        ? own + " (control " + Numbers.format(control.getAsDouble()) + ")"
        : own;
  }
}
