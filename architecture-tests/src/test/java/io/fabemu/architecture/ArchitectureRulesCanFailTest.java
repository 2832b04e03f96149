package io.fabemu.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves that every architecture rule can fail: the definitions of {@link ArchitectureRules}, built for the fixture
 * root {@code io.fabemu.archfixtures} (a tiny fake fabemu in these test sources), must report the deliberate
 * violations there and nothing that the rules allow. Without this, a rule with a mistyped package pattern would
 * match nothing and pass forever.
 */
class ArchitectureRulesCanFailTest {

  private static final String ROOT = "io.fabemu.archfixtures";
  private static final ArchitectureRules FIXTURE_RULES = new ArchitectureRules(ROOT);

  @Test
  void fixtureRulesAreTheRealRulesUnderAnotherRoot() {
    List<ArchRule> real = ArchitectureRules.FABEMU.all();
    List<ArchRule> fixture = FIXTURE_RULES.all();
    assertThat(fixture).hasSameSizeAs(real);
    for (int i = 0; i < real.size(); i++) {
      assertThat(fixture.get(i).getDescription().replace(ROOT, "io.fabemu"))
          .isEqualTo(real.get(i).getDescription());
    }
  }

  @Test
  void cycleBetweenTopLevelPackagesFails() {
    List<String> details = violations(FIXTURE_RULES.noCyclesBetweenTopLevelPackages, "app", "cluster");
    assertThat(String.join("\n", details)).contains("AppFixture", "ClusterFixture");
  }

  @Test
  void cycleInsideCoreFails() {
    List<String> details = violations(FIXTURE_RULES.noCyclesInsideCore, "core.time", "core.sim");
    assertThat(String.join("\n", details)).contains("TimeFixture", "SimFixture");
  }

  @Test
  void pekkoInPlainLogicOrADeviceModuleFailsAndPekkoInTheEngineIsAllowed() {
    List<String> details = violations(FIXTURE_RULES.plainLogicImportsNoPekko, "core.bad", "engine", "node.actor");
    // Devices run in the engine's generic actor: a device module's own actor package may not use Pekko either.
    assertThat(details).isNotEmpty().allMatch(detail -> detail.contains("PekkoInCore") || detail.contains("NodeShell"));
    assertThat(String.join("\n", details)).contains("PekkoInCore", "NodeShell");
  }

  @Test
  void engineOrCoreNamingADeviceFails() {
    List<String> details = violations(FIXTURE_RULES.engineAndCoreDependOnNoDevice, "engine", "core.protocol");
    assertThat(String.join("\n", details)).contains("EngineNamingADevice", "ProtocolNamingACollective");
    assertThat(details).noneMatch(detail -> detail.contains("PekkoInEngine"));
  }

  @Test
  void deviceFamilyNamingAnotherFails() {
    List<String> details = violations(FIXTURE_RULES.deviceFamiliesAreIndependent, "nic", "switching", "node");
    assertThat(String.join("\n", details)).contains("NicNamingASwitch", "SwitchFixture");
  }

  @Test
  void layerBelowFabricNamingFabricFails() {
    List<String> details = violations(FIXTURE_RULES.nothingBelowFabricDependsOnIt, "collectives", "fabric");
    assertThat(details).isNotEmpty().allMatch(detail -> detail.contains("CollectiveFixture"));
  }

  @Test
  void wallClockOrUnseededRandomFailsOutsideTheNamedReportOnlyMethods() {
    List<String> details = violations(FIXTURE_RULES.deterministicLogicReadsNoWallClockOrUnseededRandom,
        "node.rank", "fabric");
    assertThat(details.stream().filter(detail -> detail.contains("ClockReader")))
        .as("one violation per forbidden call in ClockReader: %s", details)
        .hasSize(io.fabemu.archfixtures.node.rank.ClockReader.FORBIDDEN_CALLS);
    assertThat(details).noneMatch(detail -> detail.contains("ClockReader.seeded("));
    assertThat(details).noneMatch(detail -> detail.contains("runOnPlainEngine"));
    assertThat(details.stream().filter(detail -> detail.contains("Fabric.wallClockInLogic"))).hasSize(1);
  }

  @Test
  void topologyKindTestOutsideTopologyFailsAndInsideIsAllowed() {
    List<String> details = violations(FIXTURE_RULES.noTopologyKindTestOutsideTopology, "core.topology", "report");
    assertThat(details).hasSize(2).allMatch(detail -> detail.contains("KindTestingReport"));
    assertThat(String.join("\n", details)).contains("RingKindSpec", "TopologySpec");
  }

  @Test
  void kernelNamingAFeatureFailsAndAFeatureUsingTheKernelIsAllowed() {
    List<String> details = violations(FIXTURE_RULES.kernelDependsOnNoFeature, "core.sim", "core.time", "core.fault");
    assertThat(details).isNotEmpty().allMatch(detail -> detail.contains("ReportNamingAFeature")
        && detail.contains("FaultFixture"));
  }

  @Test
  void tracesNamingADeviceFails() {
    List<String> details = violations(FIXTURE_RULES.tracesDependOnNoOtherModule, "traces", "node");
    assertThat(details).isNotEmpty().allMatch(detail -> detail.contains("TraceNamingADevice"));
  }

  /** Evaluates a fixture rule over the given packages (relative to the fixture root) and returns its violations. */
  private static List<String> violations(ArchRule rule, String... relativePackages) {
    String[] packages = Arrays.stream(relativePackages).map(name -> ROOT + "." + name).toArray(String[]::new);
    JavaClasses classes = new ClassFileImporter().importPackages(packages);
    assertThat(classes).as("fixture classes in %s", Arrays.toString(packages)).isNotEmpty();
    EvaluationResult result = rule.evaluate(classes);
    assertThat(result.hasViolation()).as("%s reports a violation on the fixtures", rule.getDescription()).isTrue();
    List<String> details = result.getFailureReport().getDetails();
    assertThat(details).isNotEmpty();
    return details;
  }
}
