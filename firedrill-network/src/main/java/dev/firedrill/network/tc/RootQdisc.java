package dev.firedrill.network.tc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.FaultException;
import dev.firedrill.network.Commands;
import dev.firedrill.network.Netns;
import java.io.IOException;
import java.util.List;

/**
 * A device's root qdisc as {@code tc -j qdisc show dev X} reports it. The kernel's default
 * (noqueue, pfifo_fast, mq, fq_codel, whatever the device got) has handle {@code 0:}; anything else
 * is a qdisc someone configured.
 */
record RootQdisc(String kind, String handle) {

  static final String DEFAULT_HANDLE = "0:";
  private static final ObjectMapper JSON = new ObjectMapper();

  boolean isDefault() {
    return DEFAULT_HANDLE.equals(handle);
  }

  static List<String> showCommand(Netns netns, String device) {
    return netns.exec(List.of("tc", "-j", "qdisc", "show", "dev", device));
  }

  static RootQdisc read(Netns netns, String device) throws FaultException {
    List<String> command = showCommand(netns, device);
    String out = Commands.require(command);
    try {
      for (JsonNode qdisc : JSON.readTree(out.isBlank() ? "[]" : out)) {
        if (qdisc.path("root").asBoolean(false)) {
          return new RootQdisc(qdisc.path("kind").asText("?"), qdisc.path("handle").asText("?"));
        }
      }
    } catch (IOException e) {
      throw new FaultException(
          Commands.shell(command) + " printed no JSON list of qdiscs: " + e.getMessage());
    }
    throw new FaultException(Commands.shell(command) + " shows no root qdisc");
  }
}
