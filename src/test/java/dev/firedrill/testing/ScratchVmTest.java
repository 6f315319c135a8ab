package dev.firedrill.testing;

import dev.firedrill.fault.WorkerLauncher;
import dev.firedrill.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScratchVmTest {
  @Test
  void explore() throws Exception {
    List<String> firedrill = WorkerLauncher.current().command(
        List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), Main.class, List.of());
    try (RealVictoriaMetrics vm = RealVictoriaMetrics.start("scratch", firedrill, Duration.ofMinutes(30))) {
      Path info = Path.of("/tmp/vmx/info");
      Files.writeString(info, "vm=" + vm.victoriaMetrics() + "\nvmalert=" + vm.vmalert() + "\nvmauth=" + vm.vmauth()
          + "\nam=" + vm.lab().alertmanagerUrl() + "\npw=" + vm.password() + "\nlogs=" + vm.logs() + "\nports=" + vm.ports() + "\n");
      Path marker = Path.of("/tmp/vmx/run");
      Files.writeString(marker, "x");
      long end = System.nanoTime() + Duration.ofMinutes(25).toNanos();
      while (Files.exists(marker) && System.nanoTime() < end) {
        Thread.sleep(1000);
      }
    }
  }
}
