package dev.firedrill.experiment;

/** A share (a fraction in (0, 1]) as people say it: {@code 0.2} is {@code 20%}. */
public final class Shares {

  private Shares() {}

  public static String words(double share) {
    return Numbers.format(share * 100) + "%";
  }
}
