package dev.firedrill.spring.chaosmonkey;

import static dev.firedrill.time.Durations.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.TokenSource;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultChecks;
import dev.firedrill.fault.FaultContext;
import dev.firedrill.fault.FaultException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chaos Monkey for Spring Boot switched on for a drill: its assaults and watchers set, then
 * enabled; revert disables it and switches the assault flags off. Chaos Monkey has no time limit of
 * its own, so firedrill's watchdog holds the TTL, rebuilding this fault from {@link #state()} and
 * the journal's entry (the token is read again from where the entry names it).
 */
public final class ChaosMonkeyFault implements Fault {

  /** The flags of the assaults firedrill switches on, which verify wants false. */
  private static final List<String> ASSAULT_FLAGS = List.of("latencyActive", "exceptionsActive");

  private final ChaosMonkeySpec spec;
  private final FaultContext context;
  private final Requests requests;

  /**
   * Set when inject found Chaos Monkey already enabled by someone else: this fault changed nothing,
   * so its revert must not switch their assaults off.
   */
  private boolean foundInUse;

  /** Whether this object's revert ran: the rollback line then says what it did. */
  private boolean reverted;

  ChaosMonkeyFault(ChaosMonkeySpec spec, FaultContext context) {
    this.spec = spec;
    this.context = context;
    this.requests = new Requests(spec.actuator());
  }

  static ChaosMonkeyFault restore(
      ChaosMonkeySpec spec, FaultContext context, Map<String, Object> state) throws FaultException {
    Object actuator = state.get("actuator");
    if (actuator != null && !spec.actuator().toString().equals(actuator)) {
      throw new FaultException(
          ChaosMonkeyKind.NAME
              + ": state actuator "
              + actuator
              + " differs from the entry's actuator "
              + spec.actuator()
              + "; expected the journal's own entry");
    }
    return new ChaosMonkeyFault(spec, context);
  }

  @Override
  public FaultSpec spec() {
    return spec;
  }

  @Override
  public TtlEnforcer ttlEnforcer() {
    return TtlEnforcer.WATCHDOG;
  }

  @Override
  public List<String> plan() throws FaultException {
    Duration ttl = FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    token();
    List<String> plan = new ArrayList<>();
    plan.add("GET " + requests.status() + " (refused when Chaos Monkey is already enabled)");
    plan.add("POST " + requests.assaults() + " " + Requests.assaultsBody(spec.assaults()));
    plan.add("POST " + requests.watchers() + " " + Requests.watchersBody(spec.watchers()));
    plan.add("POST " + requests.enable());
    plan.add(
        "revert, at the end or by the watchdog "
            + format(ttl)
            + " after injection if firedrill dies: POST "
            + requests.disable()
            + ", then POST "
            + requests.assaults()
            + " "
            + Requests.assaultsOffBody()
            + "; verified by GET "
            + requests.status()
            + " (enabled false) and GET "
            + requests.assaults()
            + " ("
            + String.join(" and ", ASSAULT_FLAGS)
            + " false)");
    return List.copyOf(plan);
  }

  @Override
  public void inject() throws FaultException {
    FaultChecks.check(spec, context.blastRadius(), context.methodDuration());
    ActuatorClient client = client();
    ActuatorClient.Answer status =
        expectOk("GET", requests.status(), client.get(requests.status()));
    if (enabled(status)) {
      foundInUse = true;
      throw new FaultException(
          ChaosMonkeyKind.NAME
              + ": Chaos Monkey is already enabled at "
              + spec.actuator()
              + " (another drill, or a person, is using it); expected it disabled, as"
              + " firedrill's revert would switch their assaults off; nothing was changed");
    }
    String assaults = Requests.assaultsBody(spec.assaults());
    expectOk("POST", requests.assaults(), client.post(requests.assaults(), assaults));
    String watchers = Requests.watchersBody(spec.watchers());
    expectOk("POST", requests.watchers(), client.post(requests.watchers(), watchers));
    expectOk("POST", requests.enable(), client.post(requests.enable(), null));
  }

  @Override
  public void revert() throws FaultException {
    if (foundInUse) {
      return;
    }
    ActuatorClient client = client();
    expectOk("POST", requests.disable(), client.post(requests.disable(), null));
    expectOk(
        "POST", requests.assaults(), client.post(requests.assaults(), Requests.assaultsOffBody()));
    reverted = true;
  }

  @Override
  public Verification verify() {
    if (foundInUse) {
      return Verification.reverted(
          "changed nothing at "
              + spec.actuator()
              + ": Chaos Monkey was already enabled there, and is left as it was");
    }
    try {
      ActuatorClient client = client();
      ActuatorClient.Answer status =
          expectOk("GET", requests.status(), client.get(requests.status()));
      if (enabled(status)) {
        return Verification.remaining(
            "Chaos Monkey at " + spec.actuator() + " is still enabled (/status)");
      }
      ActuatorClient.Answer assaults =
          expectOk("GET", requests.assaults(), client.get(requests.assaults()));
      JsonNode node = assaults.json();
      if (node == null) {
        return Verification.remaining(
            "GET " + requests.assaults() + " answered no JSON; expected the assault settings");
      }
      List<String> on = new ArrayList<>();
      for (String flag : ASSAULT_FLAGS) {
        if (node.path(flag).asBoolean(false)) {
          on.add(flag);
        }
      }
      if (!on.isEmpty()) {
        return Verification.remaining(
            "Chaos Monkey at "
                + spec.actuator()
                + " is disabled but "
                + String.join(" and ", on)
                + " still true (/assaults)");
      }
      return Verification.reverted(
          (reverted
                  ? "disabled Chaos Monkey at " + spec.actuator() + " and switched its assaults off"
                  : "Chaos Monkey at " + spec.actuator() + " is disabled, its assaults off")
              + "; verified: /status says disabled and /assaults has latency and exception"
              + " assaults off");
    } catch (FaultException e) {
      return Verification.remaining(e.getMessage());
    }
  }

  @Override
  public String manualRevertCommand() {
    String auth = "";
    if (spec.token() instanceof TokenSource.FromEnv env) {
      auth = "-H \"Authorization: Bearer $" + env.variable() + "\" ";
    } else if (spec.token() instanceof TokenSource.FromFile file) {
      auth = "-H \"Authorization: Bearer $(cat " + file.path() + ")\" ";
    }
    return "curl -X POST "
        + auth
        + requests.disable()
        + " && curl -X POST "
        + auth
        + "-H 'Content-Type: application/json' -d '"
        + Requests.assaultsOffBody()
        + "' "
        + requests.assaults();
  }

  /** The actuator's URL: everything else is in the journal's entry. Never the token. */
  @Override
  public Map<String, Object> state() {
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("actuator", spec.actuator().toString());
    return state;
  }

  /**
   * The actuator is all a revert needs, and is known before the first request: cleanup after a kill
   * inside the injection switches Chaos Monkey off (the watchdog holds the same state).
   */
  @Override
  public Optional<Map<String, Object>> stateBeforeInjection() {
    return Optional.of(state());
  }

  private static boolean enabled(ActuatorClient.Answer status) {
    JsonNode node = status.json();
    return node != null && node.path("enabled").asBoolean(false);
  }

  /** The answer when it is 2xx; otherwise a one-line failure saying what the status means. */
  private ActuatorClient.Answer expectOk(String method, URI url, ActuatorClient.Answer answer)
      throws FaultException {
    if (answer.ok()) {
      return answer;
    }
    String expected =
        switch (answer.status()) {
          case 401, 403 ->
              spec.token() == TokenSource.none()
                  ? "; expected token_env or token_file with the actuator's bearer token"
                  : "; expected the token from " + spec.token().describe() + " to be accepted";
          case 404 ->
              "; expected Chaos Monkey's actuator endpoint there: the application runs with"
                  + " --spring.profiles.active=chaos-monkey and"
                  + " management.endpoints.web.exposure.include names chaosmonkey";
          case 400 -> "; Chaos Monkey refused the settings";
          default -> "; expected 200";
        };
    throw new FaultException(
        ChaosMonkeyKind.NAME
            + ": "
            + method
            + " "
            + url
            + " answered "
            + answer.describe()
            + expected);
  }

  private ActuatorClient client() throws FaultException {
    return new ActuatorClient(ChaosMonkeyKind.NAME, token());
  }

  private Optional<String> token() throws FaultException {
    try {
      return spec.token().resolve(context.environment(), "the actuator's bearer token");
    } catch (IOException e) {
      throw new FaultException(ChaosMonkeyKind.NAME + ": actuator token: " + e.getMessage());
    }
  }
}
