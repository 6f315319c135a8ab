package dev.firedrill.marker.grafana;

import dev.firedrill.engine.DrillObserver;
import dev.firedrill.engine.Milestone;
import dev.firedrill.engine.Phase;
import dev.firedrill.experiment.Experiment;
import dev.firedrill.experiment.FaultSpec;
import dev.firedrill.experiment.GrafanaTarget;
import dev.firedrill.http.HttpEndpoint;
import dev.firedrill.marker.MarkerTags;
import dev.firedrill.marker.MarkerTarget;
import dev.firedrill.time.Clock;
import io.opentelemetry.context.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Marks the drill's fault window in Grafana as a region annotation: created when injection begins,
 * ended when the last started fault has been rolled back (at the drill's end at the latest), tagged
 * {@code aborted} with the reason when the drill was aborted. All HTTP runs on one background
 * thread; a Grafana that is down, slow or refusing only costs notes.
 */
public final class GrafanaAnnotations implements DrillObserver {

  static final String PATH = "/api/annotations";
  static final String SEPARATOR = " \u2014 ";

  private final GrafanaTarget target;
  private final Clock clock;
  private final Consumer<String> notes;
  private final Delivery delivery;
  private final GrafanaClient client;
  private final Outbox outbox = new Outbox();

  // Drill-side state: on() runs on the drill's thread, close() on another.
  private Experiment experiment;
  private List<String> tags = List.of();
  private String text = "";
  private boolean opened;
  private boolean ended;
  private int started;

  /** Every name the faults selected at injection (pods), in order, each once. */
  private final Set<String> selected = new LinkedHashSet<>();

  private int reverted;
  private Optional<String> abortReason = Optional.empty();

  // Only touched on the outbox's thread, which runs the create before the end.
  private OptionalLong id = OptionalLong.empty();

  /**
   * {@code notes} gets one line per failure and per annotation sent; the token never appears in
   * them. {@code clock} paces the waits between attempts.
   */
  public GrafanaAnnotations(
      GrafanaTarget target, Optional<String> token, Clock clock, Consumer<String> notes) {
    this(target, HttpEndpoint.plain("markers.grafana", target.timeout(), token), clock, notes);
  }

  /**
   * As above, with the connection, headers and credentials of {@code endpoint} (see {@link
   * HttpEndpoint#open}).
   */
  public GrafanaAnnotations(
      GrafanaTarget target, HttpEndpoint endpoint, Clock clock, Consumer<String> notes) {
    this.target = target;
    this.clock = clock;
    this.notes = line -> notes.accept(endpoint.redact(line, "[redacted]"));
    this.client = new GrafanaClient(target.url(), endpoint, target.timeout(), target.orgId());
    this.delivery = new Delivery(client, clock, this.notes);
  }

  /** How long close may need to let a pending region end reach a slow Grafana. */
  public static Duration closeWait(GrafanaTarget target) {
    return Delivery.longest(target.timeout());
  }

  @Override
  public synchronized void on(Milestone milestone) {
    if (milestone instanceof Milestone.DrillStarted s) {
      experiment = s.experiment();
    } else if (milestone instanceof Milestone.PhaseStarted p && p.phase() == Phase.INJECT) {
      // The region starts where the journal's injected_at and time-to-detect start: before the
      // first fault, so a half-started fault's effects fall inside it too.
      open(p.at());
    } else if (milestone instanceof Milestone.FaultInjecting) {
      started++;
    } else if (milestone instanceof Milestone.FaultInjected f) {
      selected.addAll(f.selected());
    } else if (milestone instanceof Milestone.Aborted a) {
      abortReason = Optional.of(a.reason());
    } else if (milestone instanceof Milestone.FaultReverted r) {
      reverted++;
      if (reverted >= started) {
        end(r.at());
      }
    } else if (milestone instanceof Milestone.DrillFinished f) {
      abortReason = abortReason.or(f::abortReason);
      end(f.at());
    }
  }

  @Override
  public void close(Duration limit) {
    synchronized (this) {
      // A drill that stopped without a finish still gets its region closed.
      end(clock.now());
    }
    List<String> unsent = outbox.close(limit);
    if (!unsent.isEmpty()) {
      notes.accept(
          "gave up after "
              + GrafanaClient.millis(limit)
              + " waiting for Grafana; not sent: "
              + String.join(", ", unsent));
    }
  }

  private void open(Instant at) {
    if (opened || experiment == null) {
      return;
    }
    opened = true;
    Set<String> tagSet = new LinkedHashSet<>();
    tagSet.add(MarkerTags.CHAOS_TAG);
    tagSet.add(experiment.id());
    experiment.method().faults().stream().map(FaultSpec::targetName).forEach(tagSet::add);
    experiment.method().faults().stream().map(FaultSpec::kind).forEach(tagSet::add);
    tags = List.copyOf(tagSet);
    text = experiment.title() + SEPARATOR + experiment.hypothesis().description();
    String body = GrafanaJson.create(at, tags, text, target.dashboardUid(), target.panelId());
    Context context = Context.current();
    String lookup = lookupPath(at, tags);
    String created = text;
    outbox.submit(
        "POST " + PATH + " (region start)",
        () -> create(body, context, () -> alreadyCreated(lookup, at, created, context)));
  }

  private void end(Instant at) {
    if (!opened || ended) {
      return;
    }
    ended = true;
    Optional<List<String>> endTags = Optional.empty();
    Optional<String> endText = Optional.empty();
    // The pods are chosen at injection, after the region opened: its end names them.
    Set<String> endTagSet = new LinkedHashSet<>(tags);
    endTagSet.addAll(MarkerTarget.names(List.copyOf(selected)));
    if (abortReason.isPresent()) {
      endTagSet.add("aborted");
      endText = Optional.of(text + SEPARATOR + "aborted: " + abortReason.get());
    }
    if (endTagSet.size() > tags.size()) {
      endTags = Optional.of(List.copyOf(endTagSet));
    }
    String body = GrafanaJson.end(at, endTags, endText);
    Context context = Context.current();
    outbox.submit("PATCH " + PATH + "/:id (region end)", () -> patch(body, context));
  }

  /**
   * {@code GET /api/annotations} for the region's start: its time, its tags (all of them), on its
   * dashboard when it has one.
   */
  private String lookupPath(Instant at, List<String> tags) {
    StringBuilder path =
        new StringBuilder(PATH)
            .append("?type=annotation&limit=10&from=")
            .append(at.toEpochMilli())
            .append("&to=")
            .append(at.toEpochMilli());
    target.dashboardUid().ifPresent(uid -> path.append("&dashboardUID=").append(encode(uid)));
    tags.forEach(tag -> path.append("&tags=").append(encode(tag)));
    return path.toString();
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** The annotation a POST that got no answer created all the same, as POST's answer would be. */
  private Optional<Outcome> alreadyCreated(String lookup, Instant at, String text, Context context)
      throws InterruptedException {
    Outcome listed = client.send("GET", lookup, null, context);
    if (!listed.ok()) {
      return Optional.empty();
    }
    OptionalLong found = GrafanaJson.found(listed.body(), at, text);
    return found.isPresent()
        ? Optional.of(Outcome.answered(200, "{\"id\":" + found.getAsLong() + "}"))
        : Optional.empty();
  }

  private void create(String body, Context context, Delivery.Lookup lookup)
      throws InterruptedException {
    Optional<Outcome> added =
        delivery.send("POST", PATH, body, context, "no annotation was created", lookup);
    if (added.isEmpty()) {
      return;
    }
    id = GrafanaJson.id(added.get().body());
    notes.accept(
        id.isPresent()
            ? "annotation " + id.getAsLong() + " added at " + target.url()
            : target.url() + " accepted the annotation without an id; its region cannot be ended");
  }

  private void patch(String body, Context context) throws InterruptedException {
    if (id.isEmpty()) {
      notes.accept("region end not sent: the annotation was never created");
      return;
    }
    String path = PATH + "/" + id.getAsLong();
    Optional<Outcome> patched =
        delivery.send(
            "PATCH",
            path,
            body,
            context,
            "annotation " + id.getAsLong() + " stays a point in time, not a region");
    if (patched.isPresent()) {
      notes.accept("annotation " + id.getAsLong() + " is now a region");
    }
  }
}
