package dev.firedrill.lab.stack;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.firedrill.fault.ProcessId;
import dev.firedrill.fault.ProcessTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The file in a lab's state directory that names the processes {@code lab up} left running, so that
 * {@code lab down}, a later process, stops exactly those. Each is named by PID and start time: a
 * PID the kernel recycled since names a stranger, and is left alone.
 */
public final class LabState {

  /** Where {@code lab up} keeps its logs, data and this file unless told otherwise. */
  public static final String DEFAULT_DIRECTORY = ".firedrill-lab";

  public static final String FILE = "lab.json";

  /** One process the lab left running, as the file records it. */
  public record Process(String name, ProcessId id, String url, Path log) {}

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path directory;

  private LabState(Path directory) {
    this.directory = directory;
  }

  /** The state of the lab whose state directory is {@code directory}. */
  public static LabState in(Path directory) {
    return new LabState(directory);
  }

  public Path directory() {
    return directory;
  }

  public Path file() {
    return directory.resolve(FILE);
  }

  /**
   * A lab is up in this directory (or one died without {@code lab down}, which the file still lets
   * stop).
   */
  public boolean exists() {
    return Files.exists(file());
  }

  /**
   * Records {@code components}, in their start order, with each one's start time read from {@code
   * table} now; a component already gone is recorded without one, so nothing is ever signalled
   * under its PID.
   */
  public void write(List<LabStack.Component> components, ProcessTable table) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode list = root.putArray("components");
    for (LabStack.Component component : components) {
      ObjectNode node = list.addObject();
      node.put("name", component.name());
      node.put("pid", component.pid());
      table.find(component.pid()).ifPresent(info -> node.put("start", info.startTicks()));
      node.put("url", component.url());
      node.put("log", component.log().toString());
    }
    Files.createDirectories(directory);
    MAPPER.writeValue(file().toFile(), root);
  }

  /** The processes in their start order. */
  public List<Process> read() throws IOException {
    JsonNode root;
    try {
      root = MAPPER.readTree(file().toFile());
    } catch (JsonProcessingException e) {
      throw new IOException(
          file()
              + ": not a lab state file: expected the JSON 'firedrill lab up' writes, "
              + e.getOriginalMessage());
    }
    JsonNode components = root.get("components");
    if (components == null || !components.isArray()) {
      throw new IOException(
          file() + ": not a lab state file: expected a JSON object with a \"components\" list");
    }
    List<Process> processes = new ArrayList<>();
    for (JsonNode node : components) {
      // A missing start time reads as 0, which only a process started at boot could match, never
      // the lab's.
      processes.add(
          new Process(
              node.path("name").asText(),
              new ProcessId(node.path("pid").asLong(), node.path("start").asLong()),
              node.path("url").asText(),
              Path.of(node.path("log").asText())));
    }
    return processes;
  }

  /**
   * The lab is down: the directory keeps its logs and data, and a later {@code lab up} may use it.
   */
  public void delete() throws IOException {
    Files.deleteIfExists(file());
  }
}
