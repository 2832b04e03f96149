package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sizes' list and range across layers: the later layer's form wins (included files, then the scenario file, then
 * the command line); both forms in one layer stay refused.
 */
class SizeFormsTest {
  @TempDir
  Path dir;

  private Path write(String name, String text) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  private static List<Long> sizes(Path scenario, Config overrides) {
    return ScenarioLoader.load(scenario, overrides).spec().workload().sizesBytes();
  }

  @Test
  void shouldLetTheFilesListReplaceTheRangeOfTheFileItIncludes() throws Exception {
    write("base.conf", "workload { min-size = 4 B, max-size = 64 B }\n");
    Path scenario = write("s.conf", "include \"base.conf\"\nworkload.sizes = [8 B, 16 B]\n");
    assertThat(sizes(scenario, ConfigFactory.empty())).containsExactly(8L, 16L);
  }

  @Test
  void shouldLetTheFilesRangeReplaceTheListOfTheFileItIncludes() throws Exception {
    write("base.conf", "workload.sizes = [8 B, 16 B]\n");
    Path scenario = write("s.conf", "include \"base.conf\"\nworkload.max-size = 32 B\n");
    // The included list is dropped: the range from the default min-size (one float32) to 32 B.
    assertThat(sizes(scenario, ConfigFactory.empty())).containsExactly(4L, 8L, 16L, 32L);
  }

  @Test
  void shouldLetTheCommandLineReplaceEitherFormOfTheFile() throws Exception {
    write("base.conf", "workload { min-size = 4 B, max-size = 64 B }\n");
    Path ranged = write("s.conf", "include \"base.conf\"\nname = s\n");
    assertThat(sizes(ranged, ConfigFactory.parseString("workload.sizes = [8, 16]"))).containsExactly(8L, 16L);

    Path listed = write("l.conf", "workload.sizes = [8 B, 16 B]\n");
    assertThat(sizes(listed, ConfigFactory.parseString("workload.max-size = 8 B"))).containsExactly(4L, 8L);
    // An override of the same form keeps the other key of the file's range.
    assertThat(sizes(ranged, ConfigFactory.parseString("workload.max-size = 16 B"))).containsExactly(4L, 8L, 16L);
  }

  @Test
  void shouldStillRefuseBothFormsInOneLayer() throws Exception {
    Path both = write("b.conf", "workload { sizes = [8 B], max-size = 64 B }\n");
    assertThatThrownBy(() -> sizes(both, ConfigFactory.empty()))
        .isInstanceOf(ScenarioException.class)
        .hasMessageEndingWith("workload.sizes: give either sizes or min-size/max-size, not both");
    write("base.conf", "workload { sizes = [8 B], max-size = 64 B }\n");
    Path including = write("s.conf", "include \"base.conf\"\nname = s\n");
    assertThatThrownBy(() -> sizes(including, ConfigFactory.empty()))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("give either sizes or min-size/max-size, not both");
    // Both forms in the file stay refused when the command line gives one of them.
    assertThatThrownBy(() -> sizes(both, ConfigFactory.parseString("workload.max-size = 8 B")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("give either sizes or min-size/max-size, not both");
    Path plain = write("p.conf", "name = p\n");
    assertThatThrownBy(() -> sizes(plain, ConfigFactory.parseString("workload { sizes = [8], max-size = 64 }")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("give either sizes or min-size/max-size, not both");
  }

  @Test
  void shouldLeaveAConfigWithoutALaterFormUnchanged() {
    Config file = ConfigFactory.parseString("workload { min-size = 4, max-size = 64 }");
    assertThat(SizeForms.underOverrides(file, ConfigFactory.parseString("seed = 1"))).isSameAs(file);
    assertThat(SizeForms.overIncludes(file, java.util.Set.of())).isSameAs(file);
    assertThat(SizeForms.underOverrides(file, ConfigFactory.parseString("workload.sizes = [8]")).hasPath(
        "workload.min-size")).isFalse();
  }
}
