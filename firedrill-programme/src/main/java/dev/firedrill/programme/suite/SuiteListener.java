package dev.firedrill.programme.suite;

/** What a suite tells its console as it goes; every method does nothing unless overridden. */
public interface SuiteListener {

  default void drillStarting(int index, int total, Suite.Entry entry) {}

  default void drillEnded(int index, int total, SuiteResult.Ran ran) {}

  default void coolingDown(int index, int total, Suite.Entry previous) {}

  default void cooledDown(int index, int total, Cooldown.Waited waited) {}

  default void stopping(int index, int total, String why) {}

  default void locked(int index, int total, String why) {}
}
