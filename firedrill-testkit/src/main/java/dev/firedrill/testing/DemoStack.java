package dev.firedrill.testing;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link SyntheticService} and a {@link RealPrometheus} scraping it, shared by a test class:
 *
 * <pre>{@code @RegisterExtension static final DemoStack stack = new DemoStack();}</pre>
 *
 * Must be a static field (started before all tests, closed after). Also usable with
 * try-with-resources via {@link #start()}.
 */
public final class DemoStack implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

  private final Supplier<Path> prometheusBinary;
  private final List<String> ruleFiles;
  private SyntheticService exporter;
  private RealPrometheus prometheus;

  public DemoStack() {
    this(List.of());
  }

  /** With rule files given as YAML text. */
  public DemoStack(List<String> ruleFiles) {
    this.prometheusBinary = RealPrometheus::binary;
    this.ruleFiles = List.copyOf(ruleFiles);
  }

  /**
   * With the Prometheus of {@code pair}, looked up when the stack starts (so a missing binary skips
   * or fails the tests that need it, not the class loading).
   */
  public DemoStack(Supplier<Stacks.Pair> pair, List<String> ruleFiles) {
    this.prometheusBinary = () -> pair.get().prometheus();
    this.ruleFiles = List.copyOf(ruleFiles);
  }

  public DemoStack start() {
    Path binary = prometheusBinary.get();
    exporter = SyntheticService.start();
    try {
      prometheus = RealPrometheus.start(binary, List.of(exporter.address()), ruleFiles);
    } catch (RuntimeException | Error e) { // includes a skipped test's abort
      exporter.close();
      throw e;
    }
    return this;
  }

  public SyntheticService exporter() {
    return exporter;
  }

  public RealPrometheus prometheus() {
    return prometheus;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  @Override
  public void close() {
    if (prometheus != null) {
      prometheus.close();
    }
    if (exporter != null) {
      exporter.close();
    }
  }
}
