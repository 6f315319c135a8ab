package dev.firedrill.embedded.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sends alerts to Alertmanagers as Prometheus's notifier does: {@link #send} only queues (so rule
 * evaluation never waits on the network), a bounded queue drops its oldest alerts when full and
 * counts them, and one sender thread posts batches as a JSON array to every Alertmanager's {@code
 * /api/v2/alerts} at once, each request with a timeout. External labels are added to an alert's
 * labels where it has none of that name.
 */
public final class Notifier implements AlertSink, AutoCloseable {

  /**
   * @param alertmanagers base URLs, e.g. {@code http://127.0.0.1:9093}
   * @param timeout per request, Prometheus's alertmanager {@code timeout} (10 s by default)
   * @param queueCapacity Prometheus's {@code --alertmanager.notification-queue-capacity} (10000)
   * @param maxBatchSize alerts per request (Prometheus sends at most 256)
   */
  public record Options(
      List<URI> alertmanagers,
      Duration timeout,
      int queueCapacity,
      int maxBatchSize,
      Map<String, String> externalLabels) {
    public Options {
      alertmanagers = List.copyOf(alertmanagers);
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.toMillis() < 1) {
        throw new IllegalArgumentException("notifier timeout " + timeout + " is below 1ms");
      }
      if (queueCapacity < 1 || maxBatchSize < 1) {
        throw new IllegalArgumentException(
            "notifier queue capacity "
                + queueCapacity
                + " and batch size "
                + maxBatchSize
                + " must be at least 1");
      }
      externalLabels = Map.copyOf(externalLabels);
    }

    public static Options defaults(List<URI> alertmanagers) {
      return new Options(alertmanagers, Duration.ofSeconds(10), 10_000, 256, Map.of());
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Go's strfmt.DateTime, as Prometheus's notifier writes startsAt and endsAt. */
  private static final DateTimeFormatter GO_DATE_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

  private final Options options;
  private final HttpClient http;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<OutgoingAlert> queue = new ArrayDeque<>();
  private final Thread sender;
  // guarded by lock
  private boolean closed;
  private boolean sending;
  private long dropped;
  private long sent;
  private long errors;
  private String lastError = "";

  private Notifier(Options options) {
    this.options = options;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(options.timeout())
            .build();
    this.sender = new Thread(this::run, "firedrill-notifier");
    sender.setDaemon(true);
  }

  /** A notifier whose sender thread is running. */
  public static Notifier start(Options options) {
    Notifier notifier = new Notifier(options);
    notifier.sender.start();
    return notifier;
  }

  /**
   * A notifier that queues but does not send until {@link #startSending}: lets a caller fill the
   * queue first.
   */
  static Notifier paused(Options options) {
    return new Notifier(options);
  }

  void startSending() {
    sender.start();
  }

  @Override
  public void send(List<OutgoingAlert> alerts) {
    List<OutgoingAlert> labelled = alerts.stream().map(this::withExternalLabels).toList();
    lock.lock();
    try {
      if (closed) {
        dropped += labelled.size();
        return;
      }
      int from = Math.max(0, labelled.size() - options.queueCapacity());
      dropped += from;
      for (OutgoingAlert alert : labelled.subList(from, labelled.size())) {
        if (queue.size() == options.queueCapacity()) {
          queue.pollFirst();
          dropped++;
        }
        queue.addLast(alert);
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private OutgoingAlert withExternalLabels(OutgoingAlert alert) {
    if (options.externalLabels().isEmpty()) {
      return alert;
    }
    Map<String, String> labels = new LinkedHashMap<>(options.externalLabels());
    labels.putAll(alert.labels());
    return new OutgoingAlert(
        labels, alert.annotations(), alert.startsAt(), alert.endsAt(), alert.generatorUrl());
  }

  /**
   * Alerts dropped because the queue was full (or the notifier closed), Prometheus's {@code
   * notifications_dropped_total}.
   */
  public long droppedCount() {
    lock.lock();
    try {
      return dropped;
    } finally {
      lock.unlock();
    }
  }

  /** Alerts posted successfully, counted once per Alertmanager. */
  public long sentCount() {
    lock.lock();
    try {
      return sent;
    } finally {
      lock.unlock();
    }
  }

  /** Failed posts, one per Alertmanager and batch. */
  public long errorCount() {
    lock.lock();
    try {
      return errors;
    } finally {
      lock.unlock();
    }
  }

  /** The last failure, one line naming the Alertmanager; empty when none. */
  public String lastError() {
    lock.lock();
    try {
      return lastError;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until every queued alert has been posted (or failed).
   *
   * @return false when {@code timeout} passed first
   */
  public boolean flush(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (!queue.isEmpty() || sending) {
        if (left <= 0) {
          return false;
        }
        left = changed.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    try {
      while (true) {
        List<OutgoingAlert> batch = new ArrayList<>();
        lock.lock();
        try {
          while (queue.isEmpty() && !closed) {
            changed.await();
          }
          if (closed) {
            return;
          }
          while (!queue.isEmpty() && batch.size() < options.maxBatchSize()) {
            batch.add(queue.pollFirst());
          }
          sending = true;
        } finally {
          lock.unlock();
        }
        post(batch);
        lock.lock();
        try {
          sending = false;
          changed.signalAll();
        } finally {
          lock.unlock();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closing: the thread ends here
    }
  }

  /**
   * Posts the batch to every Alertmanager at once and waits for all, each bounded by the timeout.
   */
  private void post(List<OutgoingAlert> batch) throws InterruptedException {
    byte[] body = payload(batch);
    List<URI> targets = options.alertmanagers();
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (URI base : targets) {
      HttpRequest request =
          HttpRequest.newBuilder(alertsUrl(base))
              .timeout(options.timeout())
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(body))
              .build();
      calls.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
    }
    for (int i = 0; i < calls.size(); i++) {
      String error = outcome(calls.get(i), targets.get(i));
      lock.lock();
      try {
        if (error == null) {
          sent += batch.size();
        } else {
          errors++;
          lastError = error;
        }
      } finally {
        lock.unlock();
      }
    }
  }

  private String outcome(CompletableFuture<HttpResponse<String>> call, URI base)
      throws InterruptedException {
    String where = "sending alerts to " + alertsUrl(base) + " failed: ";
    try {
      // The request's own timeout ends it; the extra second only guards against a client that does
      // not.
      HttpResponse<String> response =
          call.get(options.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
      if (response.statusCode() / 100 != 2) {
        return where + "bad response status " + response.statusCode();
      }
      return null;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      return where
          + cause.getClass().getSimpleName()
          + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    } catch (TimeoutException e) {
      call.cancel(true);
      return where + "no answer within " + options.timeout().toMillis() + " ms";
    } catch (InterruptedException e) {
      call.cancel(true);
      throw e;
    }
  }

  private static URI alertsUrl(URI base) {
    String text = base.toString();
    return URI.create(
        (text.endsWith("/") ? text.substring(0, text.length() - 1) : text) + "/api/v2/alerts");
  }

  /** Alertmanager's PostableAlerts: labels, annotations, startsAt, endsAt, generatorURL. */
  static byte[] payload(List<OutgoingAlert> alerts) {
    ArrayNode array = JSON.createArrayNode();
    for (OutgoingAlert alert : alerts) {
      ObjectNode node = array.addObject();
      ObjectNode labels = node.putObject("labels");
      alert.labels().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> labels.put(e.getKey(), e.getValue()));
      ObjectNode annotations = node.putObject("annotations");
      alert.annotations().entrySet().stream()
          .sorted(Map.Entry.comparingByKey())
          .forEach(e -> annotations.put(e.getKey(), e.getValue()));
      node.put("startsAt", format(alert.startsAt()));
      node.put("endsAt", format(alert.endsAt()));
      node.put("generatorURL", alert.generatorUrl());
    }
    try {
      return JSON.writeValueAsBytes(array);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the alerts as JSON", e);
    }
  }

  static String format(Instant at) {
    return GO_DATE_TIME.format(at);
  }

  /**
   * Stops the sender; alerts still queued are dropped. Waits at most the timeout plus two seconds.
   */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      dropped += queue.size();
      queue.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    sender.interrupt();
    try {
      sender.join(options.timeout().toMillis() + 2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
