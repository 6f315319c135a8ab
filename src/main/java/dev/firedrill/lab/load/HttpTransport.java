package dev.firedrill.lab.load;

import dev.firedrill.lab.trace.Baggage;
import dev.firedrill.lab.trace.TraceParent;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The plan's requests over {@link HttpClient} (HTTP/1.1, no redirects followed). */
public final class HttpTransport implements Transport {

  private final LoadPlan plan;
  private final HttpClient client;
  private final Optional<String> baggage;

  public HttpTransport(LoadPlan plan) {
    this.plan = plan;
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(plan.timeout())
        .build();
    this.baggage = plan.experimentId().map(Baggage::experiment);
  }

  @Override
  public CompletableFuture<Outcome> send(TraceParent traceparent) {
    HttpRequest.Builder request = HttpRequest.newBuilder(plan.url())
        .timeout(plan.timeout())
        .method(plan.method(), HttpRequest.BodyPublishers.noBody())
        .header(TraceParent.HEADER, traceparent.header());
    baggage.ifPresent(value -> request.header(Baggage.HEADER, value));
    try {
      return client.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding())
          .handle((response, failure) -> failure == null ? classify(response.statusCode()) : classify(failure));
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(Outcome.REFUSED);
    }
  }

  static Outcome classify(int status) {
    return status >= 200 && status < 400 ? Outcome.OK : Outcome.ERROR;
  }

  static Outcome classify(Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    return cause instanceof HttpTimeoutException ? Outcome.TIMEOUT : Outcome.REFUSED;
  }
}
