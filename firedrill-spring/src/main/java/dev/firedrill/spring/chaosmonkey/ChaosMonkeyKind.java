package dev.firedrill.spring.chaosmonkey;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.experiment.BlastRadius;
import dev.firedrill.experiment.Node;
import dev.firedrill.experiment.Numbers;
import dev.firedrill.experiment.Shares;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.FaultKind;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.net.Loopback;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** spring-chaos-monkey: Chaos Monkey for Spring Boot through the application's actuator. */
public final class ChaosMonkeyKind implements FaultKind<ChaosMonkeySpec> {

  static final String NAME = "spring-chaos-monkey";

  private static final Pattern CLASS_NAME =
      Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)+");

  /** Chaos Monkey's other assaults: firedrill's revert could not undo what they do. */
  private static final List<String> REFUSED_ASSAULTS = List.of("kill_application", "memory", "cpu");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Class<ChaosMonkeySpec> specType() {
    return ChaosMonkeySpec.class;
  }

  @Override
  public List<String> keys() {
    return List.of("actuator", "token_env", "token_file", "assaults", "watchers");
  }

  @Override
  public ChaosMonkeySpec read(Node entry, Optional<Duration> ttl) {
    Node actuatorNode =
        entry
            .get("actuator")
            .required(
                NAME
                    + " needs actuator: the application's actuator base URL, such as"
                    + " http://127.0.0.1:8080/actuator");
    var actuator =
        actuatorNode.url("http://127.0.0.1:8080/actuator", "use token_env or token_file");
    TokenSource token = token(entry);
    if (actuator != null
        && token != null
        && token != TokenSource.none()
        && "http".equalsIgnoreCase(actuator.getScheme())
        && !Loopback.isLoopback(actuator)) {
      actuatorNode.problem(
          "the bearer token would cross the network in clear text; expected an https URL for a"
              + " host other than loopback");
    }
    Assaults assaults = assaults(entry.get("assaults"));
    Watchers watchers = watchers(entry.get("watchers"));
    if (actuator == null || token == null || assaults == null || watchers == null) {
      return null;
    }
    return entry.clean() ? new ChaosMonkeySpec(actuator, token, assaults, watchers, ttl) : null;
  }

  private static TokenSource token(Node entry) {
    Node envNode = entry.get("token_env");
    Node fileNode = entry.get("token_file");
    if (envNode.present() && fileNode.present()) {
      fileNode.problem("expected token_env or token_file, not both");
      return null;
    }
    if (envNode.present()) {
      String variable = envNode.variable("CHAOS_MONKEY_TOKEN");
      return variable == null ? null : new TokenSource.FromEnv(variable);
    }
    if (fileNode.present()) {
      String text = fileNode.text();
      try {
        return text == null ? null : new TokenSource.FromFile(Path.of(text));
      } catch (InvalidPathException e) {
        return fileNode.fail("expected a file path");
      }
    }
    return TokenSource.none();
  }

  private static Assaults assaults(Node node) {
    node.required(
        NAME
            + " needs assaults: level and latency_range or exception, such as"
            + " {level: 5, latency_range: 100ms..300ms}");
    Node section = node.present() ? node.object() : null;
    if (section == null) {
      return null;
    }
    Integer level =
        section
            .get("level")
            .required("assaults need level: one watched call in level is attacked, such as 5")
            .integer(1);
    if (level != null && level > Assaults.MAX_LEVEL) {
      section.get("level").problem("expected a level from 1 to " + Assaults.MAX_LEVEL);
      level = null;
    }
    Boolean deterministic = section.get("deterministic").bool();
    Node rangeNode = section.get("latency_range");
    String rangeText = rangeNode.text();
    Optional<LatencyRange> range = Optional.empty();
    if (rangeText != null) {
      range = LatencyRange.parse(rangeText);
      if (range.isEmpty()) {
        rangeNode.fail(LatencyRange.EXPECTED);
      }
    }
    Node exceptionNode = section.get("exception");
    String exception =
        exceptionNode.text(
            CLASS_NAME,
            "expected the class name of an exception the application can load, such as"
                + " java.lang.IllegalStateException");
    if (!rangeNode.present() && !exceptionNode.present()) {
      section.problem("expected at least one assault: latency_range, exception, or both");
    }
    section.rejectUnknownKeys(
        key ->
            REFUSED_ASSAULTS.stream().anyMatch(key::startsWith)
                ? "Chaos Monkey's "
                    + key
                    + " assault is not supported: firedrill's revert could not undo what it does;"
                    + " valid keys here: level, deterministic, latency_range, exception"
                : null);
    if (level == null
        || !section.clean()
        || (rangeText != null && range.isEmpty())
        || (range.isEmpty() && exception == null)) {
      return null;
    }
    return new Assaults(
        level, Boolean.TRUE.equals(deterministic), range, Optional.ofNullable(exception));
  }

  private static Watchers watchers(Node node) {
    node.required(
        NAME + " needs watchers: the beans to attack, such as {controller: true, service: true}");
    Node section = node.present() ? node.object() : null;
    if (section == null) {
      return null;
    }
    boolean[] on = new boolean[Watchers.KEYS.size()];
    boolean any = false;
    for (int i = 0; i < on.length; i++) {
      Boolean value = section.get(Watchers.KEYS.get(i)).bool();
      on[i] = Boolean.TRUE.equals(value);
      any |= on[i];
    }
    section.rejectUnknownKeys(null);
    if (!any) {
      section.problem("expected at least one watcher true: " + String.join(", ", Watchers.KEYS));
      return null;
    }
    return section.clean() ? new Watchers(on[0], on[1], on[2], on[3], on[4]) : null;
  }

  @Override
  public void write(ChaosMonkeySpec spec, ObjectNode node) {
    node.put("actuator", spec.actuator().toString());
    if (spec.token() instanceof TokenSource.FromEnv env) {
      node.put("token_env", env.variable());
    } else if (spec.token() instanceof TokenSource.FromFile file) {
      node.put("token_file", file.path().toString());
    }
    ObjectNode assaults = node.putObject("assaults");
    assaults.put("level", spec.assaults().level());
    assaults.put("deterministic", spec.assaults().deterministic());
    spec.assaults().latency().ifPresent(range -> assaults.put("latency_range", range.text()));
    spec.assaults().exception().ifPresent(type -> assaults.put("exception", type));
    ObjectNode watchers = node.putObject("watchers");
    spec.watchers().on().forEach(key -> watchers.put(key, true));
  }

  /** The share of watched calls attacked, 1 / level, within the blast radius's traffic share. */
  @Override
  public void check(ChaosMonkeySpec spec, BlastRadius blast) throws FaultRefusedException {
    double share = spec.assaults().share();
    double allowed = blast.trafficShare();
    if (share > allowed) {
      throw new FaultRefusedException(
          NAME
              + ": assaults level "
              + spec.assaults().level()
              + " attacks "
              + Shares.words(share)
              + " of watched calls, more than blast_radius traffic_share "
              + Shares.words(allowed)
              + "; expected a level of at least "
              + (int) Math.ceil(1 / allowed - 1e-9)
              + " (1 / "
              + Numbers.format(allowed)
              + ")");
    }
  }

  /** {@code 1 in 5 calls to controller, service beans delayed 100ms..300ms}. */
  @Override
  public Optional<String> words(ChaosMonkeySpec spec) {
    Assaults assaults = spec.assaults();
    StringBuilder words =
        new StringBuilder(
            (assaults.level() == 1 ? "every call" : "1 in " + assaults.level() + " calls")
                + (assaults.deterministic() ? " (deterministic)" : "")
                + " to "
                + String.join(", ", spec.watchers().on())
                + " beans of "
                + spec.actuator().getAuthority());
    assaults.latency().ifPresent(range -> words.append(" delayed ").append(range.text()));
    assaults
        .exception()
        .ifPresent(
            type ->
                words
                    .append(assaults.latency().isPresent() ? " or" : "")
                    .append(" throw ")
                    .append(type));
    return Optional.of(words.toString());
  }

  @Override
  public Fault create(ChaosMonkeySpec spec, FaultContext context, int index) {
    return new ChaosMonkeyFault(spec, context);
  }

  @Override
  public Fault restore(ChaosMonkeySpec spec, FaultContext context, Map<String, Object> state)
      throws FaultException {
    return ChaosMonkeyFault.restore(spec, context, state);
  }
}
