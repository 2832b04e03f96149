package io.fabemu.app.member;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.cluster.Transport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The member JVMs of a local run: their options and command line (no JVM is started here). */
class LocalMembersTest {
  private static final List<String> SMALL = List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
      "-XX:+UseSerialGC");

  @Test
  void shouldUseTheSmallMachineOptionsWhenTheMachineHasFewerThanTwoCoresPerJvm() {
    assertThat(LocalMembers.SMALL_MACHINE_OPTIONS).isEqualTo(SMALL);
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3, "")).isEqualTo(SMALL);
    assertThat(LocalMembers.memberJvmOptions(null, 5, 3, "")).isEqualTo(SMALL);
    assertThat(LocalMembers.memberJvmOptions(null, 6, 3, "")).isEmpty();
    assertThat(LocalMembers.memberJvmOptions(null, 16, 2, "")).isEmpty();
  }

  @Test
  void shouldLeaveTheCollectorOrTheCompilerToTheUserWhenTheyChoseOne() {
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3, "-Xmx2g -XX:+UseG1GC"))
        .containsExactly("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1");
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3, "-XX:-UseSerialGC")).doesNotContain("-XX:+UseSerialGC");
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3, "-XX:TieredStopAtLevel=4"))
        .containsExactly("-XX:+UseSerialGC");
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3, " -XX:-TieredCompilation"))
        .containsExactly("-XX:+UseSerialGC");
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3, "-XX:CICompilerCount=2 -XX:+UseParallelGC")).isEmpty();
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3, "-XX:+UseStringDeduplication -Dx=UseG1GC"))
        .as("neither a collector nor a compiler setting").isEqualTo(SMALL);
  }

  @Test
  void shouldUseTheEnvironmentsOptionsInsteadWhenSet() {
    assertThat(LocalMembers.memberJvmOptions("  -Xss2m   -XX:+UseSerialGC ", 2, 3, "-XX:+UseG1GC"))
        .containsExactly("-Xss2m", "-XX:+UseSerialGC");
    assertThat(LocalMembers.memberJvmOptions("", 2, 3, "")).as("set but empty: none, not the automatic choice")
        .isEmpty();
  }

  @Test
  void shouldPutTheJvmOptionsBeforeTheClassPathAndJoinTheSeedOnLoopback() {
    List<String> command = LocalMembers.command("127.0.0.1:25520", Transport.TCP, List.of("-XX:+UseSerialGC"));
    int classPath = command.indexOf("-cp");
    assertThat(classPath).isPositive();
    assertThat(command.subList(0, classPath)).contains("-XX:+UseSerialGC")
        .contains("--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED");
    assertThat(command.subList(classPath, command.size())).doesNotContain("-XX:+UseSerialGC")
        .containsSequence("member", "--seed-nodes", "127.0.0.1:25520", "--host", "127.0.0.1", "--port", "0",
            "--transport", "tcp");
  }
}
