package io.fabemu.app.member;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.app.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FABEMU_MEMBER_CPUS: the member JVMs' CPU lists, checked once, and the commands they prefix. */
class MemberCpuSetsTest {
  private static final List<String> JAVA = List.of("java", "-cp", "x", "io.fabemu.app.Main", "member");

  @Test
  void shouldPrefixEachMembersCommandWithItsOwnCpuListWhenSet() {
    MemberCpuSets cpus = MemberCpuSets.parse(" 1  2-3,6 ", 2);
    assertThat(cpus.wrap(0, JAVA)).containsExactly("taskset", "-c", "1", "java", "-cp", "x", "io.fabemu.app.Main",
        "member");
    assertThat(cpus.wrap(1, JAVA).subList(0, 4)).containsExactly("taskset", "-c", "2-3,6", "java");
  }

  @Test
  void shouldLeaveTheCommandAloneWhenUnsetOrBlank() {
    assertThat(MemberCpuSets.parse(null, 3).wrap(2, JAVA)).isEqualTo(JAVA);
    assertThat(MemberCpuSets.parse("  ", 3).wrap(0, JAVA)).isEqualTo(JAVA);
  }

  @Test
  void shouldIgnoreListsBeyondTheMembers() {
    assertThat(MemberCpuSets.parse("1 2 3", 1).wrap(0, JAVA).get(2)).isEqualTo("1");
  }

  @Test
  void shouldRefuseInOneLineWhenAListIsMalformedOrMissing() {
    assertThatThrownBy(() -> MemberCpuSets.parse("1 2", 3)).isInstanceOf(BadInputException.class)
        .hasMessage("FABEMU_MEMBER_CPUS='1 2': 2 CPU list(s) for 3 member JVM(s); give one per member JVM, "
            + "separated by spaces");
    assertThatThrownBy(() -> MemberCpuSets.parse("1;2", 2)).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("FABEMU_MEMBER_CPUS='1;2': '1;2' is not a CPU list").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> MemberCpuSets.parse("0-", 1)).isInstanceOf(BadInputException.class);
    assertThatThrownBy(() -> MemberCpuSets.parse("a", 1)).isInstanceOf(BadInputException.class);
  }
}
