package dev.firedrill.network.testing;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.Fault;
import java.util.Map;

/**
 * Stands in for a firedrill that dies mid-drill: injects the fault whose entry is the JSON in
 * {@code args[0]}, prints {@code injected}, then waits to be SIGKILLed (ten minutes at most).
 */
public final class InjectAndHang {

  private InjectAndHang() {}

  public static void main(String[] args) throws Exception {
    Map<String, Object> entry =
        new ObjectMapper().readValue(args[0], new TypeReference<Map<String, Object>>() {});
    Fault fault = NetworkDrills.create(entry);
    fault.plan();
    fault.inject();
    System.out.println("injected " + new ObjectMapper().writeValueAsString(fault.state()));
    System.out.flush();
    Thread.sleep(600_000);
  }
}
