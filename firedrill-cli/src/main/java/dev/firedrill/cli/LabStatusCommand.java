package dev.firedrill.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.fault.ProcessTable;
import dev.firedrill.lab.stack.LabState;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
    name = "status",
    description =
        "Show the lab that 'firedrill lab up' started: each process, whether it runs, and whether"
            + " its address answers. Exit 0 when every part runs and answers, 1 otherwise (or when"
            + " no lab is up).")
final class LabStatusCommand implements Callable<Integer> {

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  @Option(
      names = "--state-dir",
      paramLabel = "DIR",
      defaultValue = LabState.DEFAULT_DIRECTORY,
      description = "The directory 'lab up' used (default: ${DEFAULT-VALUE}).")
  Path stateDir;

  @Mixin OutputOption output;

  @Mixin CommonOptions common;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private record Row(String name, long pid, boolean running, String url, String answer) {
    boolean up() {
      return running && answer.startsWith("HTTP");
    }
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    LabState state = LabState.in(stateDir);
    List<LabState.Process> processes;
    try {
      processes = state.exists() ? state.read() : List.of();
    } catch (IOException e) {
      throw new UserError("firedrill lab status: " + e.getMessage(), ExitCode.INVALID, e);
    }
    ProcessTable table = ProcessTable.system();
    HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    List<Row> rows =
        processes.stream()
            .map(
                p ->
                    new Row(
                        p.name(),
                        p.id().pid(),
                        table.alive(p.id()),
                        p.url(),
                        answer(http, p.url())))
            .toList();
    boolean up = !rows.isEmpty() && rows.stream().allMatch(Row::up);
    if (output.json()) {
      ObjectNode doc = OutputOption.document("lab status");
      doc.put("state_dir", stateDir.toString());
      doc.put("up", up);
      ArrayNode parts = doc.putArray("processes");
      for (Row row : rows) {
        ObjectNode part = parts.addObject();
        part.put("name", row.name());
        part.put("pid", row.pid());
        part.put("running", row.running());
        part.put("url", row.url());
        part.put("answer", row.answer());
      }
      OutputOption.print(out, doc);
    } else if (rows.isEmpty()) {
      out.println(state.file() + ": no lab is up (start one with: firedrill lab up)");
    } else {
      Colour colour = common.colour();
      String format = "%-16s %-8s %-9s %-32s %s%n";
      out.printf(format, "NAME", "PID", "PROCESS", "URL", "ANSWER");
      for (Row row : rows) {
        out.printf(
            format,
            row.name(),
            row.pid(),
            row.running() ? "running" : "gone",
            row.url(),
            row.answer());
      }
      out.println(
          "lab is "
              + (up ? colour.verdict("ok") + ": every part runs and answers" : "not wholly up")
              + " (state in "
              + stateDir
              + ")");
    }
    out.flush();
    return up ? ExitCode.HELD : ExitCode.DEVIATED;
  }

  /** {@code HTTP 200}, or why there is no answer: refused, timed out. */
  private static String answer(HttpClient http, String url) {
    try {
      HttpResponse<Void> response =
          http.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.discarding());
      return "HTTP " + response.statusCode();
    } catch (ConnectException e) {
      return "refused";
    } catch (HttpTimeoutException e) {
      return "timed out";
    } catch (IOException | IllegalArgumentException e) {
      return "no answer: " + e.getClass().getSimpleName();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
