package io.fabemu.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.typesafe.config.ConfigFactory;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.ReportPart;
import io.fabemu.core.sim.RunBlueprint;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.engine.KryoWireSerializer;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every class a feature plugs into the kernel's open types (a device report's {@link ReportPart}, a message's or
 * packet's extension, a fault command's order, a run's {@link RunBlueprint}) or that is a topology kind crosses
 * members inside a report or a scenario: each must be registered with the wire serializer. Without this, a new part
 * works on one member and fails only in a distributed run.
 */
class WireRegistrationTest {

  /** The kernel's open types whose implementations cross members. */
  private static final List<Class<?>> OPEN_TYPES = List.of(ReportPart.class, Message.Extension.class,
      Packet.Extension.class, FaultCommand.Order.class, RunBlueprint.class, TopologySpec.class);

  @Test
  void shouldRegisterEveryImplementationOfTheKernelsOpenTypes() {
    JavaClasses main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(new ArchitectureRules.DoNotIncludeSuffixedTestOutput())
        .importPackages("io.fabemu");
    Set<String> registered = new TreeSet<>();
    for (Class<?> c : new KryoWireSerializer(ConfigFactory.load(), getClass().getClassLoader()).registrations()) {
      registered.add(c.getName());
    }

    Set<String> crossing = new TreeSet<>();
    for (JavaClass c : main) {
      if (c.isInterface() || c.getModifiers().contains(JavaModifier.ABSTRACT)) continue;
      for (Class<?> open : OPEN_TYPES) {
        if (c.isAssignableTo(open)) crossing.add(c.getName());
      }
    }

    // Not vacuous: the import reaches the features' parts and extensions.
    assertThat(crossing).contains("io.fabemu.core.traffic.TrafficStats", "io.fabemu.core.fault.FaultReport",
        "io.fabemu.core.inc.IncFrame", "io.fabemu.core.inc.IncRequest", "io.fabemu.fabric.ScenarioSpec");
    assertThat(registered).as("registered with the wire serializer (fabemu.wire.registrations)")
        .containsAll(crossing);
  }
}
