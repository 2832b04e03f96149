package io.fabemu.cluster.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Bounds stated in the tables of a Markdown page, for {@link DocumentedLimitsTest}: which of a list of bounds a page
 * lacks, and numbers formatted as the docs write them ({@code 1,048,576}, {@code 1..65,536}, {@code 1 B..64 KiB},
 * {@code 10⁹}, {@code 10 Tbps}).
 */
final class DocTableBounds {

  /**
   * One documented bound: the row whose first cell is {@code firstCell}, in the table under the heading
   * {@code heading} (the heading's line is {@code heading}, or starts with it and a space), states {@code text};
   * {@code constant} names where the bound comes from (class and field).
   */
  record Bound(String constant, String heading, String firstCell, String text) {}

  private DocTableBounds() {}

  /**
   * What {@code markdown} lacks of {@code bounds}, one line each: a heading that is not there exactly once, a row
   * that is not under it exactly once, or a row that does not state the bound as a whole number (so {@code 1,000}
   * is not found in {@code 1,000,000}). Headings and rows inside fenced code blocks do not count.
   */
  static List<String> problems(String markdown, List<Bound> bounds) {
    List<String> lines = withoutCodeBlocks(markdown);
    List<String> out = new ArrayList<>();
    for (Bound bound : bounds) {
      List<Integer> headings = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.equals(bound.heading()) || line.startsWith(bound.heading() + " ")) headings.add(i);
      }
      if (headings.size() != 1) {
        out.add("'" + bound.heading() + "' is a heading " + headings.size() + " times, not once");
        continue;
      }
      List<String> rows = new ArrayList<>();
      for (int i = headings.get(0) + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
        String line = lines.get(i).strip();
        if (line.startsWith("|") && firstCell(line).equals(bound.firstCell())) rows.add(line);
      }
      if (rows.size() != 1) {
        out.add(bound.heading() + ": the row " + bound.firstCell() + " is there " + rows.size() + " times, not once");
        continue;
      }
      Pattern whole = Pattern.compile("(?<![\\p{L}\\p{N},])" + Pattern.quote(bound.text())
          + "(?![\\p{L}\\p{N}]|[,.]\\p{N})");
      if (!whole.matcher(rows.get(0)).find()) {
        out.add(bound.heading() + ": the row " + bound.firstCell() + " does not state '" + bound.text() + "' ("
            + bound.constant() + "): " + rows.get(0));
      }
    }
    return out;
  }

  /** The lines of {@code markdown} outside fenced code blocks (a fence's lines blanked, so indexes stay apart). */
  private static List<String> withoutCodeBlocks(String markdown) {
    List<String> out = new ArrayList<>();
    boolean inFence = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.strip().startsWith("```")) {
        inFence = !inFence;
        out.add("");
        continue;
      }
      out.add(inFence ? "" : line);
    }
    return out;
  }

  private static String firstCell(String row) {
    int end = row.indexOf('|', 1);
    return (end < 0 ? row.substring(1) : row.substring(1, end)).strip();
  }

  /** {@code 1,048,576}: digits grouped by commas, as the docs write counts. */
  static String count(long n) {
    return String.format(Locale.US, "%,d", n);
  }

  /** {@code 1..65,536}. */
  static String range(long min, long max) {
    return count(min) + ".." + count(max);
  }

  /** {@code 1 B..64 KiB}. */
  static String bytesRange(long min, long max) {
    return Quantities.formatBytes(min) + ".." + Quantities.formatBytes(max);
  }

  /** {@code 10⁹}: a power of ten as the docs write a large one. */
  static String powerOfTen(long n) {
    String digits = Long.toString(n);
    if (!digits.matches("10*")) throw new IllegalArgumentException(n + " is not a power of ten");
    String superscripts = "⁰¹²³⁴⁵⁶⁷⁸⁹";
    StringBuilder exponent = new StringBuilder();
    for (char d : Integer.toString(digits.length() - 1).toCharArray()) {
      exponent.append(superscripts.charAt(d - '0'));
    }
    return "10" + exponent;
  }

  /** {@code 1 s}. */
  static String duration(long ps) {
    return Quantities.formatDuration(ps);
  }

  /** {@code 10 Tbps}: a whole number of terabits per second. */
  static String rate(long bitsPerSecond) {
    if (bitsPerSecond % 1_000_000_000_000L != 0) throw new IllegalArgumentException(bitsPerSecond + " bps");
    return bitsPerSecond / 1_000_000_000_000L + " Tbps";
  }
}
