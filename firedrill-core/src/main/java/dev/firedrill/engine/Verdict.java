package dev.firedrill.engine;

/** The system hypothesis's outcome. */
public enum Verdict {
  HELD("held"),
  DEVIATED("deviated"),
  ABORTED("aborted"),
  INCONCLUSIVE("inconclusive"),
  NOT_RUN("not-run"),
  REFUSED("refused"),
  FAILED("failed");

  private final String text;

  Verdict(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }

  public static Verdict parse(String text) {
    for (Verdict verdict : values()) {
      if (verdict.text.equals(text)) {
        return verdict;
      }
    }
    throw new IllegalArgumentException("unknown verdict \"" + text + "\"");
  }
}
