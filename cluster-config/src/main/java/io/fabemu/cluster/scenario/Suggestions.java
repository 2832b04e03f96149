package io.fabemu.cluster.scenario;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean" for misspelled keys, enum values and units.
 *
 * <p>Contract: returns the candidate closest to the input by edit distance (insertions, deletions, substitutions and
 * swaps of adjacent characters each cost 1; case and {@code _} versus {@code -} cost nothing), provided it is close
 * enough to be a likely typo: at most 1 edit for inputs of up to 3 characters, 2 up to 8, 3 beyond. A candidate that
 * starts with the input followed by {@code -} (e.g. {@code pipeline} for {@code pipeline-latency}) also counts. Ties
 * go to the earlier candidate. The cost is bounded by the candidates, not the input: a candidate whose length differs
 * from the input's by more than the allowed edits is never compared, so a key of megabytes costs no more than a
 * short one.
 */
final class Suggestions {

  private Suggestions() {}

  static Optional<String> closest(String input, Collection<String> candidates) {
    String in = normalize(input);
    int allowed = in.length() <= 3 ? 1 : in.length() <= 8 ? 2 : 3;
    String prefix = in + "-";
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      String c = normalize(candidate);
      boolean longer = c.startsWith(prefix);
      // The distance is at least the difference in length: no need to fill a table of input x candidate cells.
      if (Math.abs(c.length() - in.length()) > allowed && !longer) continue;
      int d = longer ? 1 : distance(in, c);
      if (d <= allowed && d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    return Optional.ofNullable(best);
  }

  private static String normalize(String s) {
    return s.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** Optimal string alignment distance (Damerau-Levenshtein without repeated edits of one substring). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) d[i][0] = i;
    for (int j = 0; j <= b.length(); j++) d[0][j] = j;
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
