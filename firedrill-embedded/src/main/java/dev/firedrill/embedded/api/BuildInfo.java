package dev.firedrill.embedded.api;

/**
 * {@code /api/v1/status/buildinfo}: Prometheus's fields, filled with what firedrill knows of
 * itself.
 */
public record BuildInfo(
    String version,
    String revision,
    String branch,
    String buildUser,
    String buildDate,
    String goVersion) {

  /**
   * firedrill's version from its jar manifest ({@code dev} when run from classes); the runtime in
   * {@code goVersion}'s place.
   */
  public static BuildInfo firedrill() {
    String version = BuildInfo.class.getPackage().getImplementationVersion();
    return new BuildInfo(
        version == null ? "dev" : version,
        "",
        "",
        "firedrill",
        "",
        "java" + Runtime.version().feature());
  }
}
