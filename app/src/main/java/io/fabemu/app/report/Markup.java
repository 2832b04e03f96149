package io.fabemu.app.report;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Set;

/**
 * Writes HTML with inline SVG that is also well-formed XML: every element opened is closed in order (the builder
 * keeps the stack, so a section cannot leave one open), and every text and attribute value is escaped.
 *
 * <p>Contract: {@link #text} and attribute values may hold any characters; {@code &}, {@code <}, {@code >},
 * {@code "} and {@code '} are written as character references, and characters XML forbids (control characters other
 * than tab and line breaks, lone surrogates) as U+FFFD. Only {@link #raw} writes unescaped text, for constant
 * markup. An element without content is written as {@code <x/>} only where HTML honours it (its void elements, and
 * anything inside {@code <svg>}); elsewhere as {@code <x></x>}, since an HTML parser reads {@code <td/>} as an
 * opening tag. {@link #toString()} refuses a document with elements still open.
 */
public final class Markup {

  /** HTML elements that never have content (and may be written {@code <x/>}). */
  private static final Set<String> VOID_ELEMENTS = Set.of("area", "base", "br", "col", "embed", "hr", "img", "input",
      "link", "meta", "source", "track", "wbr");

  private final StringBuilder out = new StringBuilder();
  private final Deque<String> open = new ArrayDeque<>();
  private int svgDepth;

  /** Opens {@code tag} with attributes given as name, value pairs; a null value leaves that attribute out. */
  public Markup start(String tag, String... attributes) {
    out.append('<').append(tag);
    attributes(attributes);
    out.append('>');
    open.push(tag);
    if (tag.equals("svg")) svgDepth++;
    return this;
  }

  /** Closes the innermost open element, which must be {@code tag}. */
  public Markup end(String tag) {
    if (open.isEmpty() || !open.peek().equals(tag)) {
      throw new IllegalStateException("closing </" + tag + "> but the open element is "
          + (open.isEmpty() ? "none" : "<" + open.peek() + ">"));
    }
    open.pop();
    if (tag.equals("svg")) svgDepth--;
    out.append("</").append(tag).append('>');
    return this;
  }

  /** An element with no content: {@code <tag .../>} where HTML allows it, else {@code <tag ...></tag>}. */
  public Markup empty(String tag, String... attributes) {
    out.append('<').append(tag);
    attributes(attributes);
    if (svgDepth > 0 || VOID_ELEMENTS.contains(tag)) {
      out.append("/>");
    } else {
      out.append("></").append(tag).append('>');
    }
    return this;
  }

  /** An element holding only {@code text}. */
  public Markup element(String tag, String text, String... attributes) {
    return start(tag, attributes).text(text).end(tag);
  }

  /** Escaped text. */
  public Markup text(String text) {
    out.append(escape(text));
    return this;
  }

  /** A line break in the source (for readable files; no meaning in HTML). */
  public Markup newline() {
    out.append('\n');
    return this;
  }

  /** Markup written as is: only for constant text of this program (never for data). */
  public Markup raw(String markup) {
    out.append(markup);
    return this;
  }

  /** The document; every element must be closed. */
  @Override
  public String toString() {
    if (!open.isEmpty()) throw new IllegalStateException("<" + open.peek() + "> is still open");
    return out.toString();
  }

  /** {@code text} with the five XML-special characters as references and characters XML forbids replaced. */
  public static String escape(String text) {
    if (text == null) return "";
    StringBuilder sb = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> {
          if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
            sb.append(c).append(text.charAt(++i));
          } else if (allowed(c)) {
            sb.append(c);
          } else {
            sb.append('\uFFFD');
          }
        }
      }
    }
    return sb.toString();
  }

  /** A number for SVG coordinates: at most two decimals, no exponent, no negative zero. */
  public static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) throw new IllegalArgumentException("not a coordinate: " + v);
    String s = String.format(Locale.ROOT, "%.2f", v);
    s = s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    return s.equals("-0") ? "0" : s;
  }

  private void attributes(String[] attributes) {
    if (attributes.length % 2 != 0) throw new IllegalArgumentException("attributes come in name, value pairs");
    for (int i = 0; i < attributes.length; i += 2) {
      if (attributes[i + 1] == null) continue;
      out.append(' ').append(attributes[i]).append("=\"").append(escape(attributes[i + 1])).append('"');
    }
  }

  private static boolean allowed(char c) {
    if (c == '\t' || c == '\n' || c == '\r') return true;
    if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) return false;
    return !Character.isSurrogate(c);
  }
}
