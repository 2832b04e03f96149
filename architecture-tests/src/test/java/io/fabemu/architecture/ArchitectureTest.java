package io.fabemu.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Architecture rules over the main classes of every fabemu module, run by {@code mvn -B test}.
 *
 * <p>What they protect, and why:
 * <ul>
 *   <li><b>No package cycles</b>, neither between the top-level packages ({@code io.fabemu.(*)}, one per module
 *       or device family) nor between core's sub-packages: the code must stay layered so that modules can be
 *       built, read and split bottom-up.</li>
 *   <li><b>No Pekko in plain logic</b>: everything except the engine (whose generic actor runs every device),
 *       cluster config, the CLI and the load tests must run without an actor system, so the same device cores
 *       run on the plain {@code WindowedEngine}, in unit tests and in the actor engine.</li>
 *   <li><b>The engine and core know no device</b>: they are generic over devices ({@code DeviceCore}, events,
 *       sealed protocol payloads), so adding a device family never changes them.</li>
 *   <li><b>Device families are independent</b> (node, nic, switching), and nothing below fabric depends on
 *       fabric: devices meet only through core's protocol records and fabric's assembly.</li>
 *   <li><b>Determinism</b>: device, collective and assembly logic reads neither the wall clock nor an unseeded
 *       random source, so a scenario and its seed fix the result; the only exceptions time a run for its report
 *       and are named in {@link ArchitectureRules#WALL_CLOCK_FOR_REPORT_ONLY}.</li>
 *   <li><b>Topology kinds stay in core.topology</b>: no code outside it tests which kind a {@code TopologySpec}
 *       is ({@code instanceof}); it asks the spec's facts, so a new kind is one new record.</li>
 *   <li><b>The kernel depends on no feature</b>: core's kernel packages ({@code core.sim}, {@code core.protocol},
 *       {@code core.time}, {@code core.data}; {@link ArchitectureRules#KERNEL_PACKAGES}) use only each other, so
 *       features (faults, INC, Ethernet, optics, traffic, ...) plug in through the kernel's interfaces (report
 *       parts, protocol extensions) and can be added or removed without changing it.</li>
 * </ul>
 *
 * <p>The rules live in {@link ArchitectureRules}; {@code ArchitectureRulesCanFailTest} runs the same definitions
 * against deliberately bad fixture classes, so none of them can pass vacuously. Test classes (including those
 * fixtures) are left out of this import.
 */
@AnalyzeClasses(
    packages = "io.fabemu",
    importOptions = {ImportOption.DoNotIncludeTests.class, ArchitectureRules.DoNotIncludeSuffixedTestOutput.class})
class ArchitectureTest {

  private static final ArchitectureRules RULES = ArchitectureRules.FABEMU;

  /** The top-level packages the import must reach, one or more per module. */
  private static final List<String> EXPECTED_TOP_LEVEL_PACKAGES = List.of(
      "core", "collectives", "traces", "engine", "node", "nic", "switching", "fabric", "cluster", "app", "loadtests");

  @ArchTest
  static final ArchRule noCyclesBetweenTopLevelPackages = RULES.noCyclesBetweenTopLevelPackages;

  @ArchTest
  static final ArchRule noCyclesInsideCore = RULES.noCyclesInsideCore;

  @ArchTest
  static final ArchRule plainLogicImportsNoPekko = RULES.plainLogicImportsNoPekko;

  @ArchTest
  static final ArchRule engineAndCoreDependOnNoDevice = RULES.engineAndCoreDependOnNoDevice;

  @ArchTest
  static final ArchRule deviceFamiliesAreIndependent = RULES.deviceFamiliesAreIndependent;

  @ArchTest
  static final ArchRule nothingBelowFabricDependsOnIt = RULES.nothingBelowFabricDependsOnIt;

  @ArchTest
  static final ArchRule deterministicLogicReadsNoWallClockOrUnseededRandom =
      RULES.deterministicLogicReadsNoWallClockOrUnseededRandom;

  @ArchTest
  static final ArchRule noTopologyKindTestOutsideTopology = RULES.noTopologyKindTestOutsideTopology;

  @ArchTest
  static final ArchRule kernelDependsOnNoFeature = RULES.kernelDependsOnNoFeature;

  @ArchTest
  static final ArchRule tracesDependOnNoOtherModule = RULES.tracesDependOnNoOtherModule;

  /** Guards against a vacuous pass: the import holds main classes of every module and no test classes. */
  @ArchTest
  static void importReachesEveryModuleAndNoTestClass(JavaClasses classes) {
    Set<String> topLevel = new TreeSet<>();
    for (JavaClass javaClass : classes) {
      String name = javaClass.getName();
      if (name.startsWith("io.fabemu.")) {
        topLevel.add(name.substring("io.fabemu.".length()).split("\\.")[0]);
      }
    }
    assertThat(topLevel).as("top-level packages imported from io.fabemu").containsAll(EXPECTED_TOP_LEVEL_PACKAGES);
    assertThat(classes.stream().filter(ArchitectureRules::isTestSide).map(JavaClass::getName))
        .as("architecture tests or fixtures in the real import").isEmpty();
  }
}
