package dev.firedrill.network.nft;

import static dev.firedrill.network.testing.NetworkDrills.create;
import static dev.firedrill.network.testing.NetworkDrills.restored;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.firedrill.fault.Fault;
import dev.firedrill.fault.FaultRefusedException;
import dev.firedrill.fault.TtlEnforcer;
import dev.firedrill.fault.Verification;
import dev.firedrill.network.testing.InjectAndHang;
import dev.firedrill.network.testing.NetLab;
import dev.firedrill.network.testing.NetLab.Connects;
import dev.firedrill.testing.Procs;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The nftables faults against real namespaces: real connections from the client namespace to a
 * server across a veth pair, before, during and after each fault.
 */
class NftablesFaultTest {

  private NetLab lab;

  @BeforeEach
  void setUp() throws Exception {
    lab = NetLab.create();
  }

  @AfterEach
  void tearDown() {
    lab.close();
  }

  private Map<String, Object> entry(String kind, String ttl, Object... more) {
    Map<String, Object> entry = new java.util.LinkedHashMap<>();
    entry.put("kind", kind);
    entry.put("namespace", lab.client);
    entry.put("to", List.of(lab.serverAddress));
    entry.put("ports", List.of(NetLab.PORT));
    for (int i = 0; i < more.length; i += 2) {
      entry.put((String) more[i], more[i + 1]);
    }
    entry.put("ttl", ttl);
    return entry;
  }

  private static String table(Fault fault) {
    return ((NftablesFault) fault).table();
  }

  private String tables() throws Exception {
    return NetLab.run("ip", "netns", "exec", lab.client, "nft", "list", "tables");
  }

  @Test
  void aPartitionTimesConnectionsOutAndItsRevertIsVerifiedByTheNamespacesTables() throws Exception {
    assertThat(lab.connect(1, 2000).ok()).as("before the fault").isEqualTo(1);
    Fault fault = lab.revertOnClose(create(entry("network-partition", "2m")));
    assertThat(fault.ttlEnforcer()).isEqualTo(TtlEnforcer.KERNEL);
    fault.plan();
    fault.inject();

    Connects during = lab.connect(3, 500);
    System.out.println("network-partition: " + during);
    assertThat(during.timeout()).as("connections during the partition time out").isEqualTo(3);

    Fault rebuilt = restored(fault);
    rebuilt.revert();
    Verification verification = rebuilt.verify();
    assertThat(verification.reverted()).isTrue();
    assertThat(verification.detail())
        .isEqualTo(
            "deleted nftables table "
                + table(fault)
                + " in netns "
                + lab.client
                + "; verified: the namespace lists no such table");
    assertThat(tables()).doesNotContain(table(fault));
    assertThat(lab.connect(1, 2000).ok()).as("after the revert").isEqualTo(1);
  }

  @Test
  void anIngressPartitionDropsTheAnswersComingBack() throws Exception {
    Fault fault =
        lab.revertOnClose(create(entry("network-partition", "2m", "direction", "ingress")));
    fault.inject();
    Connects during = lab.connect(2, 500);
    System.out.println("network-partition ingress: " + during);
    assertThat(during.timeout()).as("the SYN-ACK never arrives").isEqualTo(2);
    fault.revert();
    assertThat(lab.connect(1, 2000).ok()).isEqualTo(1);
  }

  /** nft itself checks each script the kinds can write: every protocol, direction and effect. */
  @Test
  void nftAcceptsTheTransactionOfEveryCombination() throws Exception {
    int accepted = 0;
    for (String kind : List.of("network-partition", "network-refuse", "network-loss")) {
      for (String protocol : List.of("tcp", "udp", "all")) {
        for (boolean ports : List.of(true, false)) {
          for (String direction :
              kind.equals("network-refuse") ? List.of("") : List.of("egress", "ingress", "both")) {
            Map<String, Object> entry = entry(kind, "2m", "protocol", protocol);
            entry.put("to", List.of(lab.serverAddress, "10.99.0.0/16"));
            if (!ports) {
              entry.remove("ports");
            }
            if (!direction.isEmpty()) {
              entry.put("direction", direction);
            }
            if (kind.equals("network-loss")) {
              entry.put("share", 0.3);
            }
            Fault fault = lab.revertOnClose(create(entry));
            fault.inject();
            assertThat(tables()).contains(table(fault));
            fault.revert();
            assertThat(fault.verify().reverted()).as(entry.toString()).isTrue();
            accepted++;
          }
        }
      }
    }
    assertThat(accepted).isEqualTo(3 * 2 * (3 + 1 + 3));
  }

  @Test
  void aRefusalAnswersConnectionsWithAReset() throws Exception {
    Fault fault = lab.revertOnClose(create(entry("network-refuse", "2m")));
    fault.inject();
    Connects during = lab.connect(5, 3000);
    System.out.println("network-refuse: " + during);
    assertThat(during.refused()).as("connection refused, not timed out").isEqualTo(5);
    fault.revert();
    assertThat(fault.verify().reverted()).isTrue();
    assertThat(lab.connect(1, 2000).ok()).isEqualTo(1);
  }

  @Test
  void lossDropsRoughlyItsShareOfConnectionAttempts() throws Exception {
    Fault fault =
        lab.revertOnClose(
            create(entry("network-loss", "2m", "share", "50%", "direction", "egress")));
    fault.inject();
    // A dropped SYN is retransmitted only after a second: an attempt given 250ms is lost with it.
    int attempts = 100;
    Connects during = lab.connect(attempts, 250);
    double lost = (double) (attempts - during.ok()) / attempts;
    System.out.printf(
        "network-loss 50%%: %d of %d attempts lost (%.0f%%)%n",
        attempts - during.ok(), attempts, lost * 100);
    assertThat(lost).as("the share lost, for a 50%% share").isBetween(0.25, 0.75);
    fault.revert();
    assertThat(lab.connect(20, 1000).ok()).as("every attempt after the revert").isEqualTo(20);
  }

  @Test
  void theKernelEndsThePartitionAtItsTtlWithNoCallFromFiredrill() throws Exception {
    Fault fault = lab.revertOnClose(create(entry("network-partition", "3s")));
    fault.inject();
    assertThat(lab.connect(1, 500).timeout()).as("at once after the injection").isEqualTo(1);
    String set = "";
    // Bounded: the elements time out after 3s; a minute is far more than the kernel needs.
    for (int i = 0; i < 600; i++) {
      set =
          NetLab.run(
              "ip",
              "netns",
              "exec",
              lab.client,
              "nft",
              "list",
              "set",
              "inet",
              table(fault),
              NftablesFault.SET);
      if (!set.contains("elements")) {
        break;
      }
      Thread.sleep(100);
    }
    System.out.println("the set after its ttl:\n" + set);
    assertThat(set).as("the kernel removed the targets").doesNotContain("elements");
    assertThat(lab.connect(3, 2000).ok()).as("traffic flows again").isEqualTo(3);
    assertThat(fault.verify().reverted()).as("the empty table is left for the rollback").isFalse();
    fault.revert();
    assertThat(tables()).doesNotContain(table(fault));
  }

  /**
   * A separate JVM injects the partition and is SIGKILLed: nothing of firedrill is left running,
   * and the kernel still ends the partition at its ttl.
   */
  @Test
  void aSigkilledInjectorsPartitionEndsAtItsTtl() throws Exception {
    String json = new ObjectMapper().writeValueAsString(entry("network-partition", "4s"));
    Process injector =
        new ProcessBuilder(
                Procs.java(),
                "-cp",
                System.getProperty("java.class.path"),
                InjectAndHang.class.getName(),
                json)
            .redirectErrorStream(true)
            .start();
    String line;
    try {
      line =
          new BufferedReader(
                  new InputStreamReader(injector.getInputStream(), StandardCharsets.UTF_8))
              .readLine();
      assertThat(line).as("the injector's first line").startsWith("injected ");
      Connects partitioned = lab.connect(1, 500);
      injector.destroyForcibly(); // SIGKILL
      assertThat(injector.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(partitioned.timeout()).as("partitioned while the injector lived").isEqualTo(1);
    } finally {
      injector.destroyForcibly();
    }
    String table =
        (String)
            new ObjectMapper()
                .readValue(line.substring("injected ".length()), Map.class)
                .get("table");
    assertThat(tables()).contains(table);
    Connects flowing = new Connects(0, 0, 0, 0, 0);
    // Bounded: 40 probes of up to 1s each, far beyond the 4s ttl.
    for (int i = 0; i < 40 && flowing.ok() == 0; i++) {
      flowing = lab.connect(1, 1000);
    }
    System.out.println("after the SIGKILL and the ttl: " + flowing);
    assertThat(flowing.ok()).as("traffic flows again with no firedrill running").isEqualTo(1);
    NetLab.run("ip", "netns", "exec", lab.client, "nft", "delete", "table", "inet", table);
  }

  @Test
  void aTableThatAlreadyExistsIsRefusedBeforeAnythingRuns() throws Exception {
    Fault fault = lab.revertOnClose(create(entry("network-partition", "2m")));
    NetLab.run("ip", "netns", "exec", lab.client, "nft", "add", "table", "inet", table(fault));
    Assertions.assertThatThrownBy(fault::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessageContaining(
            "nftables table inet " + table(fault) + " already exists in netns " + lab.client);
    Assertions.assertThatThrownBy(fault::inject).isInstanceOf(FaultRefusedException.class);
    assertThat(lab.connect(1, 2000).ok()).as("nothing was added").isEqualTo(1);
  }

  @Test
  void planPrintsTheExactCommands() throws Exception {
    Fault fault =
        lab.revertOnClose(
            create(entry("network-partition", "30s", "direction", "egress", "protocol", "tcp")));
    List<String> plan = fault.plan();
    plan.forEach(System.out::println);
    String t = table(fault);
    List<String> script =
        List.of(
            "create table inet " + t,
            "add set inet " + t + " targets { type ipv4_addr; flags interval,timeout; }",
            "add chain inet "
                + t
                + " output { type filter hook output priority filter; policy accept; }",
            "add rule inet "
                + t
                + " output ip daddr @targets meta l4proto tcp th dport { 8080 } drop",
            "add element inet " + t + " targets { " + lab.serverAddress + " timeout 30s }");
    assertThat(plan)
        .containsSubsequence(
            "run: ip netns exec "
                + lab.client
                + " nft SCRIPT, one argument (one nft transaction) of these lines:",
            "  " + script.get(0),
            "  " + script.get(1),
            "  " + script.get(2),
            "  " + script.get(3),
            "  " + script.get(4),
            "rollback: ip netns exec "
                + lab.client
                + " nft delete table inet "
                + t
                + "; verified: ip netns exec "
                + lab.client
                + " nft list tables no longer lists it");
    assertThat(((NftablesFault) fault).createCommand(Duration.ofSeconds(30)))
        .as("the argument list inject runs")
        .containsExactly("ip", "netns", "exec", lab.client, "nft", String.join("\n", script));
    assertThat(tables()).as("plan changes nothing").doesNotContain(t);
  }

  /** Only reads the host's tables: plan runs nothing else, and this test injects nothing. */
  @Test
  void theHostsNamespaceRunsWithoutNetnsExecOnlyWhenTheBlastRadiusAllowsIt() throws Exception {
    Map<String, Object> entry = entry("network-partition", "2m");
    entry.remove("namespace");
    assertThatThrownBy(create(entry, false)::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessageContaining("no namespace, so the fault would act on the host's own network");
    List<String> plan = create(entry, true).plan();
    assertThat(plan.get(0)).startsWith("in the host's network namespace, nftables table inet ");
    assertThat(plan.get(1))
        .isEqualTo("run: nft SCRIPT, one argument (one nft transaction) of these lines:");
  }

  @Test
  void aMissingNamespaceIsRefusedBeforeAnythingRuns() {
    Map<String, Object> entry = entry("network-partition", "2m");
    entry.put("namespace", lab.client + "-absent");
    Fault absent = create(entry);
    Assertions.assertThatThrownBy(absent::plan)
        .isInstanceOf(FaultRefusedException.class)
        .hasMessage(
            "network-partition: network namespace "
                + lab.client
                + "-absent does not exist (ip netns list does not show it); expected namespace to"
                + " name an existing one");
  }
}
