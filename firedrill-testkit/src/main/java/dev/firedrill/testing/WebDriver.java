package dev.firedrill.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A headless Chromium driven by ChromeDriver over the W3C WebDriver protocol: just the calls a
 * report test needs. ChromeDriver runs on a free loopback port, from an argument list, and is
 * killed on close. For the tests of the drill report and of the suite report.
 */
public final class WebDriver implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

  private final Process driver;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI base;
  private String session;

  private WebDriver(Process driver, URI base) {
    this.driver = driver;
    this.base = base;
  }

  public static WebDriver start(
      Path chromedriver, Path chromium, Path profile, int width, int height) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Process process =
        new ProcessBuilder(chromedriver.toString(), "--port=" + port, "--allowed-ips=127.0.0.1")
            .redirectErrorStream(true)
            .start();
    WebDriver webDriver = new WebDriver(process, URI.create("http://127.0.0.1:" + port));
    try {
      webDriver.awaitStarted();
      ObjectNode options = JSON.createObjectNode();
      options.put("binary", chromium.toString());
      var args = options.putArray("args");
      for (String arg :
          List.of(
              "--headless",
              "--no-sandbox",
              "--disable-gpu",
              "--disable-quic",
              "--no-first-run",
              "--disable-background-networking",
              "--disable-component-update",
              "--disable-sync",
              "--hide-scrollbars",
              "--window-size=" + width + "," + height,
              "--user-data-dir=" + profile)) {
        args.add(arg);
      }
      ObjectNode body = JSON.createObjectNode();
      ObjectNode always = body.putObject("capabilities").putObject("alwaysMatch");
      always.put("browserName", "chrome");
      always.set("goog:chromeOptions", options);
      webDriver.session = webDriver.call("POST", "/session", body).path("sessionId").asText();
      return webDriver;
    } catch (Exception e) {
      webDriver.close();
      throw e;
    }
  }

  public void open(Path file) throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode().put("url", file.toUri().toString());
    call("POST", "/session/" + session + "/url", body);
  }

  public List<String> findAll(String css) throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode().put("using", "css selector").put("value", css);
    List<String> ids = new ArrayList<>();
    call("POST", "/session/" + session + "/elements", body)
        .forEach(e -> ids.add(e.path(ELEMENT).asText()));
    return ids;
  }

  public boolean displayed(String element) throws IOException, InterruptedException {
    return call("GET", "/session/" + session + "/element/" + element + "/displayed", null)
        .asBoolean();
  }

  public String attribute(String element, String name) throws IOException, InterruptedException {
    return call("GET", "/session/" + session + "/element/" + element + "/attribute/" + name, null)
        .asText(null);
  }

  public String text(String element) throws IOException, InterruptedException {
    return call("GET", "/session/" + session + "/element/" + element + "/text", null).asText();
  }

  /** Width and height of the element as laid out, in CSS pixels. */
  public double[] size(String element) throws IOException, InterruptedException {
    JsonNode rect = call("GET", "/session/" + session + "/element/" + element + "/rect", null);
    return new double[] {rect.path("width").asDouble(), rect.path("height").asDouble()};
  }

  public JsonNode script(String script) throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode().put("script", script);
    body.putArray("args");
    return call("POST", "/session/" + session + "/execute/sync", body);
  }

  /** The WebDriver error code of a command expected to fail, e.g. "no such alert". */
  public String errorOf(String method, String path) throws IOException, InterruptedException {
    HttpResponse<String> response = send(method, "/session/" + session + path, null);
    return JSON.readTree(response.body()).path("value").path("error").asText("");
  }

  public byte[] screenshot() throws IOException, InterruptedException {
    return Base64.getDecoder()
        .decode(call("GET", "/session/" + session + "/screenshot", null).asText());
  }

  @Override
  public void close() {
    try {
      if (session != null) {
        send("DELETE", "/session/" + session, null);
      }
    } catch (IOException e) {
      // The browser may be gone already; killing the driver below still ends it.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      driver.descendants().forEach(ProcessHandle::destroyForcibly);
      driver.destroyForcibly();
    }
  }

  private void awaitStarted() throws Exception {
    CompletableFuture<Void> started =
        CompletableFuture.runAsync(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(driver.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  if (line.contains("started successfully")) {
                    return;
                  }
                }
                throw new IllegalStateException("chromedriver exited before it started");
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    started.get(10, TimeUnit.SECONDS);
  }

  private JsonNode call(String method, String path, JsonNode body)
      throws IOException, InterruptedException {
    HttpResponse<String> response = send(method, path, body);
    JsonNode value = JSON.readTree(response.body()).path("value");
    if (response.statusCode() != 200) {
      throw new IOException(
          method
              + " "
              + path
              + ": HTTP "
              + response.statusCode()
              + ": "
              + value.path("error").asText()
              + ": "
              + value.path("message").asText());
    }
    return value;
  }

  private HttpResponse<String> send(String method, String path, JsonNode body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", "application/json; charset=utf-8");
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
