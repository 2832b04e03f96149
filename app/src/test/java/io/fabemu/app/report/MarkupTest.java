package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MarkupTest {

  @Test
  void shouldEscapeTheFiveSpecialCharactersInTextAndAttributes() {
    Markup m = new Markup().start("p", "title", "a\"b'c<d>&e").text("<script>alert('x' & \"y\")</script>").end("p");

    assertThat(m.toString()).isEqualTo("<p title=\"a&quot;b&#39;c&lt;d&gt;&amp;e\">&lt;script&gt;alert(&#39;x&#39; "
        + "&amp; &quot;y&quot;)&lt;/script&gt;</p>");
  }

  @Test
  void shouldReplaceCharactersXmlForbidsButKeepLineBreaksAndSurrogatePairs() {
    assertThat(Markup.escape("a\u0000b\u0007c\td\ne\uD83D\uDE00f\uD800g"))
        .isEqualTo("a\uFFFDb\uFFFDc\td\ne\uD83D\uDE00f\uFFFDg");
    assertThat(Markup.escape(null)).isEmpty();
  }

  @Test
  void shouldSelfCloseOnlyVoidElementsAndElementsInsideSvg() {
    Markup m = new Markup().start("div").empty("td").empty("br").start("svg").empty("rect", "x", "1").end("svg")
        .end("div");

    assertThat(m.toString()).isEqualTo("<div><td></td><br/><svg><rect x=\"1\"/></svg></div>");
  }

  @Test
  void shouldLeaveOutAttributesWhoseValueIsNull() {
    assertThat(new Markup().element("td", "1", "class", null, "id", "x").toString())
        .isEqualTo("<td id=\"x\">1</td>");
  }

  @Test
  void shouldRefuseAMismatchedCloseAndADocumentLeftOpen() {
    assertThatThrownBy(() -> new Markup().start("div").end("p")).isInstanceOf(IllegalStateException.class)
        .hasMessage("closing </p> but the open element is <div>");
    Markup open = new Markup().start("section");
    assertThatThrownBy(open::toString).isInstanceOf(IllegalStateException.class)
        .hasMessage("<section> is still open");
  }

  @Test
  void shouldWriteCoordinatesWithAtMostTwoDecimalsAndNoNegativeZero() {
    assertThat(Markup.num(12)).isEqualTo("12");
    assertThat(Markup.num(12.345)).isEqualTo("12.35");
    assertThat(Markup.num(0.5)).isEqualTo("0.5");
    assertThat(Markup.num(-0.001)).isEqualTo("0");
    assertThat(Markup.num(-3.1)).isEqualTo("-3.1");
    assertThatThrownBy(() -> Markup.num(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
