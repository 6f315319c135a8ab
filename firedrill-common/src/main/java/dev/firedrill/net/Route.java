package dev.firedrill.net;

import com.sun.net.httpserver.HttpHandler;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One path of a {@link LoopbackHttpServer} and the handler of each method it answers. An exact
 * route matches its path alone; a prefix route every path that starts with it (the longest prefix
 * wins, and an exact route beats any prefix). A route with GET answers HEAD too, as GET without the
 * body.
 *
 * <pre>{@code
 * Route.exact("/api/v2/alerts").get(this::list).post(this::add)
 * Route.prefix("/api/v1/label/").get(this::labelValues)
 * }</pre>
 */
public final class Route {

  private final String path;
  private final boolean prefix;
  private final Map<String, HttpHandler> methods = new LinkedHashMap<>();

  private Route(String path, boolean prefix) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("route path \"" + path + "\" does not start with /");
    }
    this.path = path;
    this.prefix = prefix;
  }

  /** The path itself, matched against the request's raw path. */
  public static Route exact(String path) {
    return new Route(path, false);
  }

  /** Every raw path that starts with {@code path}. */
  public static Route prefix(String path) {
    return new Route(path, true);
  }

  public Route get(HttpHandler handler) {
    return on("GET", handler);
  }

  public Route post(HttpHandler handler) {
    return on("POST", handler);
  }

  public Route delete(HttpHandler handler) {
    return on("DELETE", handler);
  }

  /** {@code handler} for each of {@code names} (upper case, as on the wire). */
  public Route on(String name, HttpHandler handler) {
    Objects.requireNonNull(handler, "handler");
    if (name.equals("HEAD")) {
      throw new IllegalArgumentException(
          "route " + path + ": HEAD is answered by the GET handler, not one of its own");
    }
    if (methods.putIfAbsent(name, handler) != null) {
      throw new IllegalArgumentException("route " + path + " has two handlers for " + name);
    }
    return this;
  }

  String path() {
    return path;
  }

  boolean isPrefix() {
    return prefix;
  }

  boolean matches(String requestPath) {
    return prefix ? requestPath.startsWith(path) : requestPath.equals(path);
  }

  /** The handler for {@code method}, HEAD to GET's; null when the method is not answered here. */
  HttpHandler handler(String method) {
    return methods.get(method.equals("HEAD") ? "GET" : method);
  }

  /** The methods answered here, in the order they were added (HEAD not among them). */
  List<String> methods() {
    return List.copyOf(methods.keySet());
  }
}
