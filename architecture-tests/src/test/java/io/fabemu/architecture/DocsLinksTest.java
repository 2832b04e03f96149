package io.fabemu.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the Markdown pages a reader starts from (README, CONTRIBUTING, {@code docs/},
 * {@code reference/}) leads somewhere: the file exists, and a {@code #anchor} into a Markdown page names one of its
 * headings, slugged as GitHub does (lower case; everything but letters, digits, spaces, hyphens and underscores
 * dropped; each space a hyphen; a repeated heading gets {@code -1}, {@code -2}). Links inside fenced code are not
 * links.
 */
class DocsLinksTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern FENCE = Pattern.compile("(?s)```.*?```");

  @Test
  void everyRelativeLinkOfTheDocsLeadsToAFileAndAHeading() throws IOException {
    List<Path> pages = new ArrayList<>();
    for (String top : List.of("README.md", "CONTRIBUTING.md")) {
      if (Files.exists(ROOT.resolve(top))) pages.add(ROOT.resolve(top));
    }
    for (String dir : List.of("docs", "reference")) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(dir))) {
        files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
      }
    }
    assertThat(pages).hasSizeGreaterThan(10);
    List<String> broken = new ArrayList<>();
    for (Path page : pages) broken.addAll(brokenLinks(page));
    assertThat(broken).as("links that lead nowhere").isEmpty();
  }

  @Test
  void slugsFollowGitHub() {
    assertThat(slugs("# A window on every core\n## Faults\n## Faults\n```\n# not a heading\n```\n"
        + "#### Placing an event in a case (`at = { case = ... }`)\n"))
        .containsExactly("a-window-on-every-core", "faults", "faults-1", "placing-an-event-in-a-case-at---case---");
  }

  @Test
  void aMissingFileOrHeadingIsReported(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("b.md"), "# Here\n");
    Path a = dir.resolve("a.md");
    Files.writeString(a, "[ok](b.md#here) [no file](c.md) [no heading](b.md#there) [web](https://x.org/y#z)\n"
        + "```\n[in code](nowhere.md)\n```\n[self](#top)\n# Top\n");
    assertThat(brokenLinks(a)).containsExactly("a.md: c.md (no such file)", "a.md: b.md#there (no such heading)");
  }

  private static List<String> brokenLinks(Path page) {
    String text = FENCE.matcher(read(page)).replaceAll("");
    String name = (page.startsWith(ROOT) ? ROOT.relativize(page) : page.getFileName()).toString();
    List<String> broken = new ArrayList<>();
    Matcher m = LINK.matcher(text);
    while (m.find()) {
      String url = m.group(1);
      if (url.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) continue;
      int hash = url.indexOf('#');
      String file = hash < 0 ? url : url.substring(0, hash);
      Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
      if (!Files.exists(target)) {
        broken.add(name + ": " + url + " (no such file)");
      } else if (hash >= 0 && target.toString().endsWith(".md")
          && !slugs(read(target)).contains(url.substring(hash + 1))) {
        broken.add(name + ": " + url + " (no such heading)");
      }
    }
    return broken;
  }

  /** The anchors of a page's headings, in order. */
  static Set<String> slugs(String markdown) {
    Set<String> slugs = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    for (String line : FENCE.matcher(markdown).replaceAll("").split("\n")) {
      Matcher m = HEADING.matcher(line);
      if (!m.matches()) continue;
      String slug = m.group(1).toLowerCase().replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      slugs.add(n == 0 ? slug : slug + "-" + n);
    }
    return slugs;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
