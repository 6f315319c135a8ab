package dev.firedrill.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module graph in docs/architecture.md, held for every class of the runnable jar: Maven keeps
 * the modules from depending upwards, these rules keep the packages inside them from doing it.
 */
class ArchitectureTest {

  /** The leaf module's packages: what every other module may lean on. */
  private static final String[] LEAF = {
    "dev.firedrill.time..",
    "dev.firedrill.yaml..",
    "dev.firedrill.http..",
    "dev.firedrill.net..",
    "dev.firedrill.format.."
  };

  private static final String[] CORE = {
    "dev.firedrill.experiment..",
    "dev.firedrill.engine..",
    "dev.firedrill.guard..",
    "dev.firedrill.fault..",
    "dev.firedrill.watchdog..",
    "dev.firedrill.marker..",
    "dev.firedrill.prometheus..",
    "dev.firedrill.alerting"
  };

  private static JavaClasses firedrill;

  @BeforeAll
  static void importMainClasses() {
    firedrill =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // The modules' test fixtures reach this classpath as test-jars; they are not part of
            // the graph.
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.firedrill");
  }

  /**
   * Every server firedrill opens is a LoopbackHttpServer, bound to 127.0.0.1 unless told and with
   * its limits on connections, slow requests and idle ones (docs/security.md); the fault proxy's
   * data port, which speaks HTTP itself, has the same limits of its own (ClientLimits), and
   * Loopback opens a socket only to find a free port.
   */
  @Test
  void onlyLoopbackHttpServerTheProxysListenersAndLoopbackOpenAServer() {
    // dev.firedrill.testing is the testkit's, never in the jar: its stubs are servers of their own.
    noClasses()
        .that()
        .haveNameNotMatching("dev\\.firedrill\\.net\\.LoopbackHttpServer(\\$.*)?")
        .and()
        .resideOutsideOfPackage("dev.firedrill.testing..")
        .should()
        .callMethod(com.sun.net.httpserver.HttpServer.class, "create")
        .orShould()
        .callMethod(
            com.sun.net.httpserver.HttpServer.class,
            "create",
            java.net.InetSocketAddress.class,
            int.class)
        .check(firedrill);
    noClasses()
        .that()
        .haveNameNotMatching(
            "dev\\.firedrill\\.(proxy\\.Listener|proxy\\.HttpListener|net\\.Loopback)(\\$.*)?")
        .and()
        .resideOutsideOfPackage("dev.firedrill.testing..")
        .should()
        .callConstructor(java.net.ServerSocket.class)
        .orShould()
        .callConstructor(java.net.ServerSocket.class, int.class)
        .orShould()
        .callConstructor(java.net.ServerSocket.class, int.class, int.class)
        .orShould()
        .callConstructor(
            java.net.ServerSocket.class, int.class, int.class, java.net.InetAddress.class)
        .orShould()
        .callMethod(java.nio.channels.ServerSocketChannel.class, "open")
        .check(firedrill);
  }

  @Test
  void topLevelPackagesFormNoCycle() {
    slices().matching("dev.firedrill.(*)..").should().beFreeOfCycles().check(firedrill);
  }

  @Test
  void everyPackageFormsNoCycle() {
    slices().matching("dev.firedrill.(**)").should().beFreeOfCycles().check(firedrill);
  }

  @Test
  void theLeafDependsOnNoOtherPartOfFiredrill() {
    noClasses()
        .that()
        .resideInAnyPackage(LEAF)
        .should()
        .dependOnClassesThat(resideInAPackage("dev.firedrill..").and(not(resideInAnyPackage(LEAF))))
        .check(firedrill);
  }

  @Test
  void thePromqlEngineNeedsOnlyTheLeaf() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.firedrill.promql..", "dev.firedrill.regex..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.firedrill..")
                .and(not(resideInAnyPackage("dev.firedrill.promql..", "dev.firedrill.regex..")))
                .and(not(resideInAnyPackage(LEAF))))
        .check(firedrill);
    noClasses()
        .that()
        .resideInAnyPackage("dev.firedrill.promql..", "dev.firedrill.regex..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.fasterxml..", "io.opentelemetry..", "io.prometheus..")
        .check(firedrill);
  }

  @Test
  void theCoreImportsNeitherTheLabNorTheEmbeddedServersNorTheCli() {
    noClasses()
        .that()
        .resideInAnyPackage(CORE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.firedrill.lab..",
            "dev.firedrill.embedded..",
            "dev.firedrill.cli..",
            "dev.firedrill.simulate..",
            "dev.firedrill.report..",
            "dev.firedrill.history..",
            "dev.firedrill.programme..",
            "dev.firedrill.proxy..",
            "dev.firedrill.kubernetes..",
            "dev.firedrill.network..",
            "dev.firedrill.spring..")
        .check(firedrill);
  }

  @Test
  void faultModulesLeanOnlyOnTheFaultSpiTheExperimentAndTheLeaf() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.firedrill.kubernetes..", "dev.firedrill.network..", "dev.firedrill.spring..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.firedrill.engine..",
            "dev.firedrill.guard..",
            "dev.firedrill.marker..",
            "dev.firedrill.prometheus..",
            "dev.firedrill.alerting..",
            "dev.firedrill.cli..",
            "dev.firedrill.lab..")
        .check(firedrill);
  }

  /** Chaos Monkey is driven over plain HTTP: Spring stays in the tests' application. */
  @Test
  void noMainClassKnowsSpring() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("org.springframework..", "de.codecentric..")
        .check(firedrill);
  }

  @Test
  void theFaultModulesDoNotKnowEachOther() {
    List<String> modules =
        List.of("dev.firedrill.kubernetes..", "dev.firedrill.network..", "dev.firedrill.spring..");
    for (String module : modules) {
      noClasses()
          .that()
          .resideInAPackage(module)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              modules.stream().filter(m -> !m.equals(module)).toArray(String[]::new))
          .check(firedrill);
    }
  }

  @Test
  void onlyTheKubernetesModuleKnowsFabric8() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.firedrill.kubernetes..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.fabric8..")
        .check(firedrill);
  }

  @Test
  void faultsDependOnlyOnTheirSpiAndTheLeaf() {
    noClasses()
        .that()
        .resideInAPackage("dev.firedrill.fault..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.firedrill.engine..",
            "dev.firedrill.guard..",
            "dev.firedrill.marker..",
            "dev.firedrill.prometheus..",
            "dev.firedrill.alerting..")
        .check(firedrill);
  }

  /**
   * The watchdog is a process of its own that restores faults as cleanup does: it needs the fault
   * SPI and the experiment's specs, never the drill.
   */
  @Test
  void theWatchdogLeansOnlyOnTheFaultSpi() {
    noClasses()
        .that()
        .resideInAPackage("dev.firedrill.watchdog..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.firedrill.engine..",
            "dev.firedrill.guard..",
            "dev.firedrill.marker..",
            "dev.firedrill.prometheus..",
            "dev.firedrill.alerting..")
        .check(firedrill);
  }

  @Test
  void onlyTheCliKnowsPicocli() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.firedrill.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("picocli..")
        .check(firedrill);
  }
}
