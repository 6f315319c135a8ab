package dev.firedrill.spring.chaosmonkey;

import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.TokenSource;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * spring-chaos-monkey: Chaos Monkey for Spring Boot, switched on through the application's actuator
 * for the drill and off again at its end. {@code token} names where the actuator's bearer token is
 * read (an environment variable or a file), never the token.
 *
 * @param actuator the actuator's base URL, such as {@code http://127.0.0.1:8080/actuator}
 */
public record ChaosMonkeySpec(
    URI actuator, TokenSource token, Assaults assaults, Watchers watchers, Optional<Duration> ttl)
    implements FaultSpec {

  public ChaosMonkeySpec {
    Objects.requireNonNull(actuator, "actuator");
    token = token == null ? TokenSource.none() : token;
    Objects.requireNonNull(assaults, "assaults");
    Objects.requireNonNull(watchers, "watchers");
    ttl = ttl == null ? Optional.empty() : ttl;
  }

  @Override
  public String kind() {
    return ChaosMonkeyKind.NAME;
  }

  /** {@code Chaos Monkey at http://127.0.0.1:8080/actuator}. */
  @Override
  public String target() {
    return "Chaos Monkey at " + actuator;
  }

  /** The application's host and port. */
  @Override
  public String targetName() {
    return actuator.getAuthority();
  }
}
