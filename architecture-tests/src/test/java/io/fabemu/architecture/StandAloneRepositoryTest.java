package io.fabemu.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The repository stands alone: a clone of it, with nothing beside it, builds and passes its tests. So no file of it
 * names a path outside the repository where the project's working papers lived, nor a source document by the file
 * name of its archive copy, nor a source document as "seed N" (the five documents are named by what they are: the
 * INC patent, the INC paper, the ring patent, the router patent, the optical patent; "seed" is only the random
 * seed). Reference measurements live under {@code reference/}, each with its source.
 *
 * <p>Every file under the repository root is read except build output and tool folders ({@link #SKIPPED}); binary
 * files (a NUL byte) are skipped.
 */
class StandAloneRepositoryTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** Rules: what may not appear, and why (the message of a violation). */
  static final List<Rule> RULES = List.of(
      new Rule(Pattern.compile("\\.\\./shared"), "a path outside the repository"),
      new Rule(Pattern.compile("\\b00[0-4]_[0-9a-f]{16}\\b"), "a source document's archive file name"),
      new Rule(Pattern.compile("(?i)\\bseeds?\\s+00[0-4]\\b"), "a source document named as a seed"));

  /** Folder names not read: build output, version control, IDE and test-tool state. */
  private static final Pattern SKIPPED =
      Pattern.compile("\\.git|target.*|out|\\.idea|results.*|\\.jqwik-database|node_modules");

  record Rule(Pattern pattern, String what) {}

  @Test
  void noFileNamesAPathOutsideTheRepositoryOrASourceDocumentByItsArchiveName() throws IOException {
    assertThat(ROOT.resolve("pom.xml")).as("the repository root").exists();
    List<String> violations = new ArrayList<>();
    int[] read = {0};
    Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        boolean skip = !dir.equals(ROOT) && SKIPPED.matcher(dir.getFileName().toString()).matches();
        return skip ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        for (byte b : bytes) {
          if (b == 0) return FileVisitResult.CONTINUE;
        }
        read[0]++;
        violations.addAll(violations(ROOT.relativize(file).toString(),
            new String(bytes, StandardCharsets.UTF_8)));
        return FileVisitResult.CONTINUE;
      }
    });
    assertThat(read[0]).as("files read").isGreaterThan(500);
    assertThat(violations).as("files that do not stand alone").isEmpty();
  }

  @Test
  void theReferenceTablesAreInTheRepositoryWithTheirSource() throws IOException {
    Path table = ROOT.resolve("reference/inc-allreduce-4nodes.csv");
    assertThat(Files.readAllLines(table).get(0)).startsWith("#").contains("the INC paper", "table 4");
    assertThat(Files.readString(ROOT.resolve("reference/README.md"))).contains("inc-allreduce-4nodes.csv");
    assertThat(ROOT.resolve("LICENSE")).content().contains("Apache License", "Version 2.0");
  }

  @Test
  void eachRuleFindsItsViolationWithItsLine() {
    String text = "fine\nsee ../" + "shared/reference/x.csv\nalso 001" + "_e8417a207b8271c7.txt and Seed " + "004\n"
        + "the scenario seed 42 is fine, as is the ring patent\n";
    assertThat(violations("f.md", text)).containsExactly(
        "f.md:2: a path outside the repository ('../" + "shared')",
        "f.md:3: a source document's archive file name ('001" + "_e8417a207b8271c7')",
        "f.md:3: a source document named as a seed ('Seed " + "004')");
    assertThat(violations("g.md", "nothing to see; seed 7; 0001_e8417a207b8271c7x")).isEmpty();
  }

  /** One line per match: {@code FILE:LINE: what ('match')}. */
  static List<String> violations(String name, String text) {
    List<String> found = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      for (Rule rule : RULES) {
        Matcher m = rule.pattern().matcher(lines[i]);
        while (m.find()) {
          found.add(name + ":" + (i + 1) + ": " + rule.what() + " ('" + m.group() + "')");
        }
      }
    }
    return found;
  }
}
