package dev.firedrill.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One request whose answer is bounded in time and in size, body included. The JDK's request timeout
 * ends once the status and headers have arrived: a backend that sends its headers and then a body
 * without end (or one that trickles) would hold a plain {@code send} forever, and {@code
 * BodyHandlers.ofString} would keep every byte of it in memory.
 */
public final class BoundedExchange {

  /** What an API answer of firedrill's backends may hold at most: far above any real one. */
  public static final int DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

  private BoundedExchange() {}

  /**
   * Sends {@code request} and reads its body as UTF-8, giving up after {@code deadline} (from the
   * send to the body's last byte) with an {@link HttpTimeoutException}, and after {@code maxBytes}
   * of body with an {@link IOException} saying so; either way the connection is closed.
   */
  public static HttpResponse<String> send(
      HttpClient client, HttpRequest request, Duration deadline, int maxBytes)
      throws IOException, InterruptedException {
    CompletableFuture<HttpResponse<String>> future = client.sendAsync(request, ofString(maxBytes));
    try {
      return future.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      future.cancel(true);
      throw e;
    } catch (TimeoutException e) {
      future.cancel(true);
      HttpTimeoutException timedOut =
          new HttpTimeoutException("no whole answer within " + deadline.toMillis() + "ms");
      timedOut.initCause(e);
      throw timedOut;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(
          cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
    }
  }

  /**
   * A UTF-8 body of at most {@code maxBytes}: past that the subscription is cancelled (which closes
   * the connection) and the body fails with {@link TooLarge}.
   */
  public static HttpResponse.BodyHandler<String> ofString(int maxBytes) {
    return info -> new Limited(maxBytes);
  }

  /** A body longer than the limit. */
  public static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(int maxBytes) {
      super(
          "body larger than "
              + (maxBytes % (1024 * 1024) == 0
                  ? maxBytes / (1024 * 1024) + " MiB"
                  : maxBytes + " bytes")
              + ", not read further");
    }
  }

  private static final class Limited implements HttpResponse.BodySubscriber<String> {
    private final int maxBytes;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<String> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    Limited(int maxBytes) {
      this.maxBytes = maxBytes;
    }

    @Override
    public CompletionStage<String> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      if (body.isDone()) {
        return;
      }
      for (ByteBuffer item : items) {
        if (bytes.size() + (long) item.remaining() > maxBytes) {
          subscription.cancel();
          body.completeExceptionally(new TooLarge(maxBytes));
          return;
        }
        byte[] chunk = new byte[item.remaining()];
        item.get(chunk);
        bytes.write(chunk, 0, chunk.length);
      }
      subscription.request(1);
    }

    @Override
    public void onError(Throwable throwable) {
      body.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
      body.complete(bytes.toString(StandardCharsets.UTF_8));
    }
  }
}
