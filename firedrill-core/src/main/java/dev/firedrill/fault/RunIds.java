package dev.firedrill.fault;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * A run id: eight lowercase hex digits drawn afresh for each drill, part of the name or a label of
 * everything its faults create (a proxy toxic, a Chaos Mesh object, a cpu-burn worker's command
 * line). A rollback or a cleanup then removes only what carries its own run's id, never what a
 * second drill of the same experiment created under the same experiment id and index.
 */
public final class RunIds {

  /** How a run id looks, for messages. */
  public static final String SHAPE = "eight lowercase hex digits";

  private static final Pattern VALID = Pattern.compile("[0-9a-f]{8}");
  private static final SecureRandom RANDOM = new SecureRandom();

  private RunIds() {}

  public static String fresh() {
    byte[] bytes = new byte[4];
    RANDOM.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  public static boolean valid(String runId) {
    return VALID.matcher(runId).matches();
  }
}
