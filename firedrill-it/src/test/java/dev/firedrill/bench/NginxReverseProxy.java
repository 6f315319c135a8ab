package dev.firedrill.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * nginx (Debian's nginx-light) as a plain reverse proxy to one upstream on 127.0.0.1, the reference
 * the fault proxy's overhead is set beside: one worker per core (as the fault proxy has one event
 * loop per core), HTTP/1.1 keep-alive to the upstream, no access log (the fault proxy logs no
 * request either). Its prefix, temp paths, pid and error log live in a folder of the benchmark's.
 */
final class NginxReverseProxy implements AutoCloseable {

  static final Path BINARY = Path.of("/usr/sbin/nginx");
  private static final long TICKS_PER_SECOND =
      100; // USER_HZ, 100 on every Linux x86 and arm64 build

  private final Process master;
  private final int port;

  private NginxReverseProxy(Process master, int port) {
    this.master = master;
    this.port = port;
  }

  static NginxReverseProxy start(Path dir, URI upstream) throws IOException, InterruptedException {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Path conf = dir.resolve("nginx.conf");
    Files.writeString(
        conf,
        """
        daemon off;
        master_process on;
        worker_processes %d;
        pid %s/nginx.pid;
        error_log %s/error.log warn;
        events { worker_connections 1024; }
        http {
          access_log off;
          client_body_temp_path %s/body;
          proxy_temp_path %s/proxy;
          fastcgi_temp_path %s/fastcgi;
          uwsgi_temp_path %s/uwsgi;
          scgi_temp_path %s/scgi;
          upstream measured { server 127.0.0.1:%d; keepalive 64; }
          server {
            listen 127.0.0.1:%d;
            location / {
              proxy_pass http://measured;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
            }
          }
        }
        """
            .formatted(
                Runtime.getRuntime().availableProcessors(),
                dir,
                dir,
                dir,
                dir,
                dir,
                dir,
                dir,
                upstream.getPort(),
                port));
    Process master =
        new ProcessBuilder(BINARY.toString(), "-p", dir.toString(), "-c", conf.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("nginx.out").toFile())
            .start();
    NginxReverseProxy nginx = new NginxReverseProxy(master, port);
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    while (true) {
      if (!master.isAlive()) {
        throw new IOException(
            "nginx exited with "
                + master.exitValue()
                + ": "
                + Files.readString(dir.resolve("nginx.out")).strip()
                + " "
                + errorLog(dir));
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        return nginx;
      } catch (IOException notYet) {
        if (Instant.now().isAfter(deadline)) {
          nginx.close();
          throw new IOException(
              "nginx did not listen on 127.0.0.1:" + port + " within 10 s " + errorLog(dir));
        }
        TimeUnit.MILLISECONDS.sleep(50);
      }
    }
  }

  private static String errorLog(Path dir) throws IOException {
    Path log = dir.resolve("error.log");
    return Files.exists(log) ? Files.readString(log).strip() : "";
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** CPU time (user and system) of the master and its workers so far, in nanoseconds. */
  long cpuNanos() throws IOException {
    long ticks = 0;
    for (ProcessHandle process :
        Stream.concat(Stream.of(master.toHandle()), master.descendants()).toList()) {
      Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
      String text;
      try {
        text = Files.readString(stat);
      } catch (IOException gone) {
        continue;
      }
      // Fields after the command (which may hold spaces), from the state on: utime and stime are
      // the 12th and 13th.
      List<String> fields = List.of(text.substring(text.lastIndexOf(')') + 2).split(" "));
      ticks += Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12));
    }
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  @Override
  public void close() throws InterruptedException {
    master.destroy(); // SIGTERM: nginx's fast shutdown
    if (!master.waitFor(10, TimeUnit.SECONDS)) {
      master.descendants().forEach(ProcessHandle::destroyForcibly);
      master.destroyForcibly();
      master.waitFor(5, TimeUnit.SECONDS);
    }
  }
}
