package io.fabemu.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.InstanceofCheck;
import com.tngtech.archunit.core.domain.properties.HasName;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.Slice;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The architecture rules of fabemu, defined once and relative to a root package: {@link #FABEMU} holds them for
 * the real code ({@code io.fabemu}, checked by {@link ArchitectureTest}); {@code ArchitectureRulesCanFailTest}
 * builds the very same definitions for the fixture root {@code io.fabemu.archfixtures}, a small fake project with
 * one deliberate violation per rule, to prove that no rule passes vacuously.
 */
final class ArchitectureRules {

  /**
   * Methods that may read the wall clock inside the deterministic packages, relative to the root, as
   * {@code ClassName.methodName}. Each one only times the run for its report (emulator speed); the value never
   * feeds the emulation. Keep this list short and name every entry.
   */
  static final Set<String> WALL_CLOCK_FOR_REPORT_ONLY = Set.of(
      // Wall seconds of a plain-engine run, put into RunResult (or TrafficResult) for the report.
      "fabric.Fabric.runOnPlainEngine", "fabric.Fabric.runTrafficOnPlainEngine");

  /**
   * The kernel: the packages of core that every device and feature builds on (virtual time, events and device cores,
   * the wire protocol, data buffers), relative to the root. They may use each other and nothing else of fabemu;
   * every other package of core (fault, inc, ethernet, optical, traffic, rings, router, link, routing, topology,
   * placement, util) is a feature or a feature's helper, which may use the kernel but not be used by it.
   */
  static final List<String> KERNEL_PACKAGES = List.of("core.sim", "core.protocol", "core.time", "core.data");

  /** The rules over the real code (declared after the sets above, which the rules' descriptions read). */
  static final ArchitectureRules FABEMU = new ArchitectureRules("io.fabemu");

  final String root;

  /** No package cycles between the top-level packages (one per module or device family). */
  final ArchRule noCyclesBetweenTopLevelPackages;
  /** No package cycles between the sub-packages of core. */
  final ArchRule noCyclesInsideCore;
  /** Plain-logic packages never touch Pekko. */
  final ArchRule plainLogicImportsNoPekko;
  /** The engine and core know no device, no collective, no assembly, no CLI. */
  final ArchRule engineAndCoreDependOnNoDevice;
  /** The device families stay apart. */
  final ArchRule deviceFamiliesAreIndependent;
  /** Fabric is the top of the plain stack: nothing beneath it reaches up. */
  final ArchRule nothingBelowFabricDependsOnIt;
  /** Deterministic logic reads neither the wall clock nor an unseeded random source. */
  final ArchRule deterministicLogicReadsNoWallClockOrUnseededRandom;
  /** Only core.topology tests which kind a topology spec is. */
  final ArchRule noTopologyKindTestOutsideTopology;
  /** The kernel packages of core depend on no feature: only on each other (and the JDK). */
  final ArchRule kernelDependsOnNoFeature;
  /** The trace reader uses no other fabemu module. */
  final ArchRule tracesDependOnNoOtherModule;

  ArchitectureRules(String root) {
    this.root = root;
    noCyclesBetweenTopLevelPackages = slices().matching(root + ".(*)..").namingSlices("$1")
        .should().beFreeOfCycles()
        .because("modules and device families must build and be reasoned about bottom-up; a cycle between top-level "
            + "packages welds two layers into one and blocks splitting them into separate Maven modules");
    noCyclesInsideCore = slices().matching(root + ".core.(*)..").namingSlices("core.$1")
        .should().beFreeOfCycles()
        .because("core's packages (the kernel's time, sim, data, protocol, and the shared parts beside it) are "
            + "layers of their own; a cycle among them makes core one lump that cannot be understood or moved apart");
    plainLogicImportsNoPekko = noClasses().that().resideInAPackage(root + "..")
        .and().resideOutsideOfPackages(actorPackages())
        .should().dependOnClassesThat().resideInAPackage("org.apache.pekko..")
        .because("plain-logic packages hold the deterministic emulation and must run and be tested without an actor "
            + "system (the plain WindowedEngine, unit tests, benchmarks); only the engine (whose generic DeviceActor "
            + "runs every device), cluster config, the CLI and the load tests may use Pekko");
    engineAndCoreDependOnNoDevice = noClasses().that().resideInAnyPackage(root + ".engine..", root + ".core..")
        .should().dependOnClassesThat().resideInAnyPackage(
            root + ".node..", root + ".nic..", root + ".switching..", root + ".fabric..", root + ".collectives..",
            root + ".traces..", root + ".cluster..", root + ".app..", root + ".loadtests..")
        .because("the window engine and core are generic over devices: they see DeviceCore, events and the sealed "
            + "protocol payloads only, so a new device family never requires a change to them");
    deviceFamiliesAreIndependent = slices().matching(root + ".(*)..").namingSlices("$1")
        .that(namedOneOf("node", "nic", "switching"))
        .should().notDependOnEachOther()
        .because("compute nodes, NICs and switches talk only through the protocol records in core and are wired "
            + "together by fabric; a direct dependency between two families couples their modules and hides a "
            + "message that should cross a link");
    nothingBelowFabricDependsOnIt = noClasses().that().resideInAnyPackage(
            root + ".core..", root + ".collectives..", root + ".traces..", root + ".engine..", root + ".node..",
            root + ".nic..", root + ".switching..")
        .should().dependOnClassesThat().resideInAPackage(root + ".fabric..")
        .because("fabric assembles devices into a cluster and aggregates results; the parts it assembles must not "
            + "know the assembly");
    deterministicLogicReadsNoWallClockOrUnseededRandom = noClasses().that().resideInAnyPackage(
            root + ".core..", root + ".collectives..", root + ".traces..", root + ".node..", root + ".nic..",
            root + ".switching..", root + ".fabric..")
        .should().callCodeUnitWhere(wallClockOrUnseededRandom().and(notFromAReportOnlyMethod()))
        .because("emulation results must depend only on the scenario and its seed (virtual time, seeded random "
            + "streams), so reruns and the plain and actor engines agree bit for bit; wall time may only be measured "
            + "for a report, in the methods named in ArchitectureRules.WALL_CLOCK_FOR_REPORT_ONLY");
    noTopologyKindTestOutsideTopology = classes().that().resideInAPackage(root + "..")
        .and().resideOutsideOfPackage(root + ".core.topology..")
        .should(testNoKindOf(root + ".core.topology.TopologySpec"))
        .because("code outside a kind's record asks the spec for what it needs (TopologySpec's facts, whose defaults "
            + "answer for the other kinds), so a new topology kind is a new record in core.topology and no change "
            + "elsewhere");
    kernelDependsOnNoFeature = noClasses().that().resideInAnyPackage(kernelPackages())
        .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage(root + "..")
            .and(JavaClass.Predicates.resideOutsideOfPackages(kernelPackages())))
        .because("features are plug-ins: the kernel (" + String.join(", ", KERNEL_PACKAGES) + ") carries what they "
            + "add (report parts, protocol extensions) through its own interfaces, so a feature can be added or "
            + "removed without touching it; the kernel packages are listed in ArchitectureRules.KERNEL_PACKAGES");
    tracesDependOnNoOtherModule = noClasses().that().resideInAPackage(root + ".traces..")
        .should().dependOnClassesThat().resideInAnyPackage(
            root + ".core..", root + ".collectives..", root + ".engine..", root + ".node..", root + ".nic..",
            root + ".switching..", root + ".fabric..", root + ".cluster..", root + ".app..", root + ".loadtests..")
        .because("the trace reader turns Chakra files into plain, validated records and nothing more; whatever runs a "
            + "trace (ranks, fabric, CLI) depends on it, so it must stay free of devices, the engine and Pekko");
  }

  /** Every rule, in a fixed order. */
  List<ArchRule> all() {
    return List.of(noCyclesBetweenTopLevelPackages, noCyclesInsideCore, plainLogicImportsNoPekko,
        engineAndCoreDependOnNoDevice, deviceFamiliesAreIndependent, nothingBelowFabricDependsOnIt,
        deterministicLogicReadsNoWallClockOrUnseededRandom, noTopologyKindTestOutsideTopology,
        kernelDependsOnNoFeature, tracesDependOnNoOtherModule);
  }

  /** The kernel packages under this root, with their sub-packages. */
  String[] kernelPackages() {
    return KERNEL_PACKAGES.stream().map(name -> root + "." + name + "..").toArray(String[]::new);
  }

  /** Packages allowed to use Pekko: the engine, cluster config, the CLI, the load tests. */
  String[] actorPackages() {
    return new String[] {root + ".engine..", root + ".cluster..", root + ".app..", root + ".loadtests.."};
  }

  private static DescribedPredicate<Slice> namedOneOf(String... names) {
    Set<String> set = Set.of(names);
    return DescribedPredicate.describe("are one of " + set, slice -> set.contains(slice.getNamePart(1)));
  }

  /**
   * Calls that read the wall clock or an unseeded random source: System.currentTimeMillis and nanoTime, any
   * java.time {@code now(..)} and {@code Clock.system*}, the no-argument constructors of Random and
   * SplittableRandom, any SecureRandom constructor, Math/StrictMath.random, ThreadLocalRandom.current and
   * UUID.randomUUID.
   */
  static DescribedPredicate<JavaCall<?>> wallClockOrUnseededRandom() {
    return DescribedPredicate.describe(
        "read the wall clock or an unseeded random source (System.currentTimeMillis/nanoTime, java.time now/"
            + "Clock.system*, new Random(), new SplittableRandom(), new SecureRandom(..), Math.random, "
            + "ThreadLocalRandom.current, UUID.randomUUID)",
        call -> {
          String owner = call.getTarget().getOwner().getName();
          String name = call.getTarget().getName();
          boolean noArgs = call.getTarget().getRawParameterTypes().isEmpty();
          boolean constructor = JavaConstructor.CONSTRUCTOR_NAME.equals(name);
          switch (owner) {
            case "java.lang.System":
              return name.equals("currentTimeMillis") || name.equals("nanoTime");
            case "java.time.Clock":
              return name.startsWith("system");
            case "java.util.Random":
            case "java.util.SplittableRandom":
              return constructor && noArgs;
            case "java.security.SecureRandom":
              return constructor;
            case "java.lang.Math":
            case "java.lang.StrictMath":
              return name.equals("random");
            case "java.util.concurrent.ThreadLocalRandom":
              return name.equals("current");
            case "java.util.UUID":
              return name.equals("randomUUID");
            default:
              return owner.startsWith("java.time.") && name.equals("now");
          }
        });
  }

  /**
   * No {@code instanceof} (nor a pattern's) on {@code specInterface} or a type implementing it, in any code unit of
   * the class (methods, constructors, static initialisers, lambdas' synthetic methods).
   */
  static ArchCondition<JavaClass> testNoKindOf(String specInterface) {
    return new ArchCondition<>("test no kind of " + specInterface + " (no instanceof on it or its kinds)") {
      @Override
      public void check(JavaClass javaClass, ConditionEvents events) {
        for (JavaCodeUnit codeUnit : javaClass.getCodeUnits()) {
          for (InstanceofCheck check : codeUnit.getInstanceofChecks()) {
            if (check.getRawType().isAssignableTo(specInterface)) {
              events.add(SimpleConditionEvent.violated(check, codeUnit.getFullName() + " tests instanceof "
                  + check.getRawType().getName() + " in " + check.getSourceCodeLocation()));
            }
          }
        }
      }
    };
  }

  private DescribedPredicate<JavaCall<?>> notFromAReportOnlyMethod() {
    return DescribedPredicate.describe("are not in a report-only method " + WALL_CLOCK_FOR_REPORT_ONLY,
        call -> {
          JavaCodeUnit origin = call.getOrigin();
          String relative = relativeName(origin.getOwner()) + "." + origin.getName();
          return !WALL_CLOCK_FOR_REPORT_ONLY.contains(relative);
        });
  }

  private String relativeName(HasName type) {
    String name = type.getName();
    return name.startsWith(root + ".") ? name.substring(root.length() + 1) : name;
  }

  /**
   * Leaves out test output even when the build folder carries a suffix ({@code target-a/test-classes} with
   * {@code -Dfabemu.build.suffix=-a}), which {@link ImportOption.DoNotIncludeTests} does not recognise; this keeps
   * the fixtures and these tests out of the real import.
   */
  static final class DoNotIncludeSuffixedTestOutput implements ImportOption {
    private static final Pattern TEST_OUTPUT = Pattern.compile(".*/target[^/]*/test-classes/.*");

    @Override
    public boolean includes(Location location) {
      return !location.matches(TEST_OUTPUT);
    }
  }

  /** Whether a class is one of the architecture tests or their fixtures (never part of the real import). */
  static boolean isTestSide(JavaClass javaClass) {
    String name = javaClass.getName();
    return name.startsWith("io.fabemu.architecture.") || name.startsWith("io.fabemu.archfixtures.");
  }
}
