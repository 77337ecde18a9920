/*
 * JDK Mission Control's automated analysis of one JFR recording, printed as JMC's own XML report.
 *
 * JMC's JfrRulesReport main filters results below Severity.OK, which drops the "not applicable" ones; this
 * calls its public addReport with Severity.NA (every result kept, verbose: explanation and solution too) and
 * drops the verbose item sets (the events behind each result), which jvmlab does not read.
 *
 * Usage: java -cp 'build/jmc/classes:build/jmc/*' JmcRulesXml RECORDING.jfr
 */

import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.openjdk.jmc.flightrecorder.rules.Severity;
import org.openjdk.jmc.flightrecorder.rules.report.JfrRulesReport;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

public final class JmcRulesXml {
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: JmcRulesXml RECORDING.jfr");
            System.exit(2);
        }
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
        Element reports = doc.createElement("reportcollection");
        doc.appendChild(reports);
        JfrRulesReport.addReport(args[0], Severity.NA, true, reports);
        removeAll(reports, "itemset");
        write(doc);
    }

    private static void removeAll(Element root, String tag) {
        NodeList found = root.getElementsByTagName(tag);
        for (int i = found.getLength() - 1; i >= 0; i--) {
            found.item(i).getParentNode().removeChild(found.item(i));
        }
    }

    private static void write(Document doc) throws Exception {
        Transformer transformer = TransformerFactory.newInstance().newTransformer();
        transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        transformer.setOutputProperty(OutputKeys.INDENT, "yes");
        OutputStreamWriter out = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        transformer.transform(new DOMSource(doc), new StreamResult(out));
        out.flush();
    }
}
