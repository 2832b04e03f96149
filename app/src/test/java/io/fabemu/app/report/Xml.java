package io.fabemu.app.report;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Test helper: parses the report's HTML (which is well-formed XML by contract) and finds elements in it. */
public final class Xml {
  private Xml() {}

  /** The document; a parse error (a tag left open, an unescaped '<' or '&') fails the test. */
  public static Document parse(String markup) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(false);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(markup.getBytes(StandardCharsets.UTF_8)));
  }

  /** Every element named {@code tag}, in document order. */
  public static List<Element> all(Document doc, String tag) {
    NodeList nodes = doc.getElementsByTagName(tag);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) out.add((Element) nodes.item(i));
    return out;
  }

  /** The text of every element named {@code tag}. */
  public static List<String> texts(Document doc, String tag) {
    return all(doc, tag).stream().map(Element::getTextContent).toList();
  }

  /**
   * The body rows' cells of the first table whose headings begin with {@code headings}; empty when no table does.
   */
  public static List<List<String>> tableRows(Document doc, String... headings) {
    for (Element table : all(doc, "table")) {
      NodeList ths = table.getElementsByTagName("th");
      if (ths.getLength() < headings.length) continue;
      boolean match = true;
      for (int i = 0; i < headings.length && match; i++) match = ths.item(i).getTextContent().equals(headings[i]);
      NodeList bodies = table.getElementsByTagName("tbody");
      if (!match || bodies.getLength() == 0) continue;
      List<List<String>> rows = new ArrayList<>();
      NodeList trs = ((Element) bodies.item(0)).getElementsByTagName("tr");
      for (int r = 0; r < trs.getLength(); r++) {
        NodeList tds = ((Element) trs.item(r)).getElementsByTagName("td");
        List<String> cells = new ArrayList<>();
        for (int c = 0; c < tds.getLength(); c++) cells.add(tds.item(c).getTextContent());
        rows.add(cells);
      }
      return rows;
    }
    return List.of();
  }
}
