package dev.firedrill.net;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Sets the JDK HTTP servers' limits when the test JVM starts, as firedrill's main does before any
 * server: the JDK reads them once, when its first server starts, and tests here start plain JDK
 * servers (upstreams, stubs) of their own in any order.
 */
public final class ServerLimitsAtLaunch implements LauncherSessionListener {

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    LoopbackHttpServer.preferNoDelay();
  }
}
