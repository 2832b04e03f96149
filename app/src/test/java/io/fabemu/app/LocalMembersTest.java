package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.cluster.Transport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The member JVMs of a local run: their options and command line (no JVM is started here). */
class LocalMembersTest {

  @Test
  void shouldCompileWithC1OnlyWhenTheMachineHasFewerThanTwoCoresPerJvm() {
    assertThat(LocalMembers.memberJvmOptions(null, 2, 3))
        .containsExactly("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC");
    assertThat(LocalMembers.memberJvmOptions(null, 5, 3)).isEqualTo(LocalMembers.SMALL_MACHINE_OPTIONS);
    assertThat(LocalMembers.memberJvmOptions(null, 6, 3)).isEmpty();
    assertThat(LocalMembers.memberJvmOptions(null, 16, 2)).isEmpty();
  }

  @Test
  void shouldUseTheEnvironmentsOptionsInsteadWhenSet() {
    assertThat(LocalMembers.memberJvmOptions("  -Xss2m   -XX:+UseSerialGC ", 2, 3))
        .containsExactly("-Xss2m", "-XX:+UseSerialGC");
    assertThat(LocalMembers.memberJvmOptions("", 2, 3)).as("set but empty: none, not the automatic choice")
        .isEmpty();
  }

  @Test
  void shouldPutTheJvmOptionsBeforeTheClassPathAndJoinTheSeedOnLoopback() {
    List<String> command = LocalMembers.command("127.0.0.1:25520", Transport.TCP, 3);
    int classPath = command.indexOf("-cp");
    assertThat(classPath).isPositive();
    List<String> expectedOptions = LocalMembers.memberJvmOptions(System.getenv(LocalMembers.MEMBER_JAVA_OPTS_ENV),
        Runtime.getRuntime().availableProcessors(), 3);
    assertThat(command.subList(0, classPath)).containsAll(expectedOptions)
        .contains("--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED");
    assertThat(command.subList(classPath, command.size()))
        .containsSequence("member", "--seed-nodes", "127.0.0.1:25520", "--host", "127.0.0.1", "--port", "0",
            "--transport", "tcp");
  }
}
