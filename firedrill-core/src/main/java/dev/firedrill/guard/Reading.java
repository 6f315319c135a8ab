package dev.firedrill.guard;

import dev.firedrill.experiment.Numbers;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One measured value of an SLI or guard at one moment. {@code value} is present for ok and breach,
 * and absent for no-data and error; {@code expectation} is the range it was held to, for messages.
 */
public record Reading(
    String name, Status status, OptionalDouble value, String expectation, String detail) {

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
      case OK -> name + " " + Numbers.format(value.getAsDouble()) + " " + expectation;
      case BREACH -> name + " " + Numbers.format(value.getAsDouble()) + " outside " + expectation;
      case NO_DATA -> name + " no data" + (detail.isEmpty() ? "" : " (" + detail + ")");
      case ERROR -> name + " error: " + detail;
    };
  }
}
