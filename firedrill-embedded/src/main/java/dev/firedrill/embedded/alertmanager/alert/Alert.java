package dev.firedrill.embedded.alertmanager.alert;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An alert as Alertmanager holds it after {@code POST /api/v2/alerts} filled in its times.
 *
 * @param endsAt always set: given by the sender, or now + {@code resolve_timeout}
 * @param generatorUrl empty when the sender gave none
 * @param updatedAt when Alertmanager last received it
 * @param timeout whether {@code endsAt} was made up from {@code resolve_timeout} rather than sent
 */
public record Alert(
    SortedMap<String, String> labels,
    SortedMap<String, String> annotations,
    Instant startsAt,
    Instant endsAt,
    String generatorUrl,
    Instant updatedAt,
    boolean timeout) {

  public Alert {
    labels = sorted(labels);
    annotations = sorted(annotations);
    Objects.requireNonNull(startsAt, "startsAt");
    Objects.requireNonNull(endsAt, "endsAt");
    Objects.requireNonNull(generatorUrl, "generatorUrl");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  public long fingerprint() {
    return LabelSets.fingerprint(labels);
  }

  /** {@code ResolvedAt}: resolved once {@code endsAt} is not after {@code at}. */
  public boolean resolvedAt(Instant at) {
    return !endsAt.isAfter(at);
  }

  /**
   * Alertmanager's {@code Alert.Merge} of an alert it holds with a newer copy: the younger one
   * wins, but the earliest start is kept, and a later end time too when it was sent rather than
   * made up.
   */
  public Alert merge(Alert other, Instant now) {
    if (other.updatedAt.isBefore(updatedAt)) {
      return other.merge(this, now);
    }
    Instant start = startsAt.isBefore(other.startsAt) ? startsAt : other.startsAt;
    Instant end = other.endsAt;
    if (other.resolvedAt(now)) {
      if (resolvedAt(now) && endsAt.isAfter(other.endsAt)) {
        end = endsAt;
      }
    } else if (endsAt.isAfter(other.endsAt) && !timeout) {
      end = endsAt;
    }
    return new Alert(
        other.labels,
        other.annotations,
        start,
        end,
        other.generatorUrl,
        other.updatedAt,
        other.timeout);
  }

  private static SortedMap<String, String> sorted(Map<String, String> map) {
    return Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(map)));
  }
}
