package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The scenario as loaded, collapsed until the reader opens it. */
class ScenarioEchoSectionTest {

  @Test
  void shouldHoldTheScenarioInADetailsElementClosedByDefault() throws Exception {
    Markup m = new Markup();
    ScenarioEchoSection.ofRun(ConfigFactory.parseString("seed = 42\nworkload { iterations = 3 }"), "x.conf")
        .render(m);

    Document doc = Xml.parse("<div>" + m + "</div>");
    List<Element> details = Xml.all(doc, "details");
    assertThat(details).hasSize(1);
    assertThat(details.get(0).hasAttribute("open")).isFalse();
    Element pre = (Element) details.get(0).getElementsByTagName("pre").item(0);
    assertThat(pre.getTextContent()).contains("seed=42", "iterations=3");
    assertThat(details.get(0).getElementsByTagName("summary").item(0).getTextContent())
        .isEqualTo("Show the scenario as loaded (" + pre.getTextContent().lines().count() + " lines of HOCON)");
    // The note stays outside, so the reader sees where the scenario came from without opening it.
    assertThat(Xml.texts(doc, "p").get(0)).startsWith("Read from x.conf");
  }
}
