"""Synthetic stories for the fixture sites of the South African publications added with eNCA, Moneyweb,
the Daily Sun, The Witness, the IOL titles, Maroela Media, Vuk'uzenzele and Food For Mzansi (all
invented). Same shape as fixture_stories.py: slug -> [(url_path, headline, author, published, paragraphs)].
Vuk'uzenzele's stories are in three of its languages (isiZulu, Sesotho, English): the crawl must
identify each page's language from its text.
"""

from __future__ import annotations

Story = tuple[str, str, str, str, list[str]]


def _iol_title(section: str, town: str, author: str, uid: str, uid2: str) -> list[Story]:
    """Two stories of an IOL title: a municipal one and a schools one, set in the title's city."""
    return [
        (
            f"/{section}/news/{town.lower().replace(' ', '-')}-residents-fight-rates-increase-{uid}",
            f"{town} residents fight proposed rates increase",
            author,
            "2026-11-03T06:30:00+02:00",
            [
                f"Ratepayers' associations across {town} have lodged more than 4,000 objections to the city's "
                "proposed property rates increase, which would take effect in July next year.",
                "The associations say the new valuation roll overstates the value of older homes and that "
                "pensioners on fixed incomes will be hit hardest by the increase.",
                "“We are not refusing to pay; we are asking the city to value our homes fairly,” said "
                "association chair Nomvula Dlamini at a packed community hall meeting on Sunday.",
                "The city's finance committee said every objection would be considered before the council "
                "votes on the budget in May.",
            ],
        ),
        (
            f"/{section}/news/schools-in-{town.lower().replace(' ', '-')}-get-new-science-laboratories-{uid2}",
            f"Schools in {town} get new science laboratories",
            author,
            "2026-11-04T09:00:00+02:00",
            [
                f"Twelve public high schools in {town} will have fully equipped science laboratories by the "
                "start of the next school year, the provincial education department said on Tuesday.",
                "The laboratories are funded by a partnership between the department and a group of "
                "engineering firms, which will also train the teachers who use them.",
                "Principals said pupils had until now learnt chemistry and physics from textbooks alone, "
                "without doing a single experiment before their final examinations.",
                "The first three laboratories were opened last week and the rest will follow in January.",
            ],
        ),
    ]


STORIES_ZA: dict[str, list[Story]] = {
    "enca": [
        (
            "/south-africa/eskom-announces-winter-maintenance-plan",
            "Eskom announces winter maintenance plan",
            "Lindiwe Mthembu",
            "2026-11-03T12:40:00+02:00",
            [
                "Eskom says it will complete most planned maintenance at its coal-fired power stations "
                "before the winter peak, reducing the risk of load shedding when demand is highest.",
                "The utility's head of generation told journalists in Johannesburg that three units at "
                "Kusile and Medupi would return to service by the end of March.",
                "“We have learnt from previous winters that maintenance cannot be postponed,” he said, "
                "adding that diesel spending for the open-cycle gas turbines had fallen by half.",
                "Energy analysts welcomed the plan but warned that the grid remained vulnerable to "
                "unplanned breakdowns at older stations.",
            ],
        ),
        (
            "/news/taxi-strike-ends-after-talks-with-transport-department",
            "Taxi strike ends after talks with transport department",
            "Sipho Ndlovu",
            "2026-11-04T16:05:00+02:00",
            [
                "A two-day taxi strike that left thousands of commuters stranded in Gauteng ended on "
                "Wednesday after taxi associations and the transport department reached an agreement.",
                "The associations had demanded that impounded minibuses be released and that the "
                "operating licence backlog be cleared before the end of the year.",
                "The department agreed to open two additional licensing offices and to review the "
                "impoundment rules within thirty days.",
                "Taxis were back on the roads by late afternoon, and Metrorail said its extra trains "
                "would stop running on Thursday.",
            ],
        ),
    ],
    "moneyweb": [
        (
            "/news/south-africa/rand-firms-as-inflation-slows-more-than-expected/",
            "Rand firms as inflation slows more than expected",
            "Ingé Lamprecht",
            "2026-11-03T11:15:00+02:00",
            [
                "The rand strengthened against the dollar on Wednesday after consumer inflation slowed "
                "to 3.1% in October, below what most economists had forecast.",
                "Lower fuel and food prices did most of the work, while services inflation held steady "
                "at just under four percent, Statistics South Africa said.",
                "“The figure gives the Reserve Bank room to cut rates again in January,” said an economist "
                "at a Johannesburg investment bank, adding that markets had already priced in a cut.",
                "Government bond yields fell across the curve, and banking shares led the JSE higher.",
            ],
        ),
        (
            "/news/companies-and-deals/retailer-to-close-forty-stores-in-restructuring/",
            "Retailer to close forty stores in restructuring",
            "Ciaran Ryan",
            "2026-11-04T08:45:00+02:00",
            [
                "A national clothing retailer will close forty of its stores over the next year as part "
                "of a restructuring that it says will return the group to profit by 2028.",
                "The group told shareholders that most of the stores to be closed are in shopping centres "
                "where rents have risen faster than sales since the pandemic.",
                "Staff at the affected stores will be offered positions at other branches where possible, "
                "and the company is in consultation with the union about retrenchments.",
                "The retailer's shares rose by six percent after the announcement.",
            ],
        ),
    ],
    "witness": [
        (
            "/news/kzn/msunduzi-water-outage-leaves-suburbs-dry-20261103",
            "Msunduzi water outage leaves suburbs dry for three days",
            "Chris Ndaliso",
            "2026-11-03T07:20:00+02:00",
            [
                "Residents of several Pietermaritzburg suburbs have been without water for three days after "
                "a major pipe burst near the Umgeni Water reservoir on Friday night.",
                "The Msunduzi municipality said repair teams were working around the clock and that water "
                "tankers had been sent to the worst affected areas.",
                "“We have had to buy bottled water for the children and for cooking,” said Prestbury "
                "resident Fathima Moosa, whose street has had no water since Saturday morning.",
                "The municipality expects supply to be restored by Tuesday evening.",
            ],
        ),
        (
            "/news/kzn/midlands-farmers-count-cost-of-hailstorm-20261104",
            "Midlands farmers count the cost of a hailstorm",
            "Nompumelelo Mngoma",
            "2026-11-04T10:10:00+02:00",
            [
                "Farmers in the KwaZulu-Natal Midlands are assessing damage to crops and orchards after a "
                "severe hailstorm swept through the area around Howick and Mooi River on Sunday.",
                "Hailstones the size of golf balls stripped maize seedlings and broke the netting over "
                "several fruit orchards, one farmer said.",
                "The provincial agriculture department said officials would visit the affected farms this "
                "week to determine whether disaster relief could be made available.",
                "Insurers said they had already received more than two hundred claims.",
            ],
        ),
    ],
    "dailysun": [
        (
            "/dailysun/news/gogo-opens-soup-kitchen-for-hungry-kids-20261103",
            "Gogo opens soup kitchen for hungry kids",
            "Themba Mkhize",
            "2026-11-03T05:45:00+02:00",
            [
                "A 71-year-old gogo from Orange Farm has turned her backyard into a soup kitchen that feeds "
                "more than eighty children every afternoon after school.",
                "Gogo Martha Nkosi said she started cooking for a few neighbourhood children two years ago "
                "when she noticed they were coming home to empty pots.",
                "“These children are our future. I cannot sleep knowing they are hungry,” she told the "
                "People's Paper while stirring a big pot of samp and beans.",
                "Local businesses now donate vegetables and maize meal every week.",
            ],
        ),
        (
            "/dailysun/news/residents-chase-cable-thieves-from-substation-20261104",
            "Residents chase cable thieves from substation",
            "Happy Mnguni",
            "2026-11-04T06:30:00+02:00",
            [
                "Angry residents of Tembisa chased away a gang of suspected cable thieves who were caught "
                "cutting cables at the local substation in the early hours of Wednesday morning.",
                "The community has been without electricity for more than a week because of repeated "
                "cable theft, residents said.",
                "Police spokesman Captain Sello Maema said two suspects had been arrested and that a "
                "bakkie loaded with copper cable had been recovered.",
                "Residents have now started street patrols to protect the substation at night.",
            ],
        ),
    ],
    "capetimes": _iol_title(
        "capetimes",
        "Cape Town",
        "Okuhle Hlati",
        "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
        "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
    ),
    "capeargus": _iol_title(
        "capeargus",
        "Mitchells Plain",
        "Mwangi Githahu",
        "3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f",
        "4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f80",
    ),
    "thestar": _iol_title(
        "the-star",
        "Soweto",
        "Sakhile Ndlazi",
        "5e6f7a8b-9c0d-4e1f-8a3b-4c5d6e7f8091",
        "6f7a8b9c-0d1e-4f2a-9b4c-5d6e7f8091a2",
    ),
    "pretorianews": _iol_title(
        "pretoria-news",
        "Pretoria",
        "Rapula Moatshe",
        "7a8b9c0d-1e2f-4a3b-8c5d-6e7f8091a2b3",
        "8b9c0d1e-2f3a-4b4c-9d6e-7f8091a2b3c4",
    ),
    "mercury": _iol_title(
        "mercury",
        "Durban",
        "Tanya Waterworth",
        "9c0d1e2f-3a4b-4c5d-8e7f-8091a2b3c4d5",
        "0d1e2f3a-4b5c-4d6e-9f80-91a2b3c4d5e6",
    ),
    "maroelamedia": [
        (
            "/nuus/sa-nuus/boere-in-noordwes-kry-eindelik-reen-na-lang-droogte/",
            "Boere in Noordwes kry eindelik reën ná lang droogte",
            "Marietjie Gericke",
            "2026-11-03T08:00:00+02:00",
            [
                "Boere in die Noordwes-provinsie is verlig nadat die eerste goeie reën in meer as agt maande "
                "die afgelope naweek oor groot dele van die provinsie uitgesak het.",
                "Op sommige plase naby Lichtenburg en Delareyville is meer as sestig millimeter gemeet, en "
                "damme wat heeltemal opgedroog het, het weer water.",
                "“Ons het al begin wonder of ons hierdie seisoen enigsins sal kan plant,” het ’n mielieboer "
                "van die distrik gesê terwyl hy sy lande besigtig het.",
                "Die weerburo verwag nog buie later vandeesweek, maar waarsku dat die droogte nog nie verby is nie.",
            ],
        ),
        (
            "/nuus/sa-nuus/skool-in-bloemfontein-vier-honderd-jaar-van-onderrig/",
            "Skool in Bloemfontein vier honderd jaar van onderrig",
            "Elsabé Brits",
            "2026-11-04T09:30:00+02:00",
            [
                "’n Hoërskool in Bloemfontein vier hierdie week sy honderdste bestaansjaar met ’n reeks "
                "feesgeleenthede waarby oud-leerlinge van regoor die land betrokke is.",
                "Die skool het in 1926 met net twee klaskamers en sewentig leerlinge begin en het vandag "
                "meer as duisend leerlinge.",
                "Die hoof het gesê die skool is trots daarop dat hy steeds onderrig in moedertaal aanbied en "
                "dat die matriekuitslae die afgelope tien jaar bo negentig persent was.",
                "Die feesvierings sluit Saterdag af met ’n groot reünie op die skool se sportterrein.",
            ],
        ),
    ],
    "vukuzenzele": [
        (
            "/abalimi-abasafufusa-bathola-usizo-lukahulumeni",
            "Abalimi abasafufusa bathola usizo lukahulumeni",
            "Nomsa Khumalo",
            "2026-11-03T08:00:00+02:00",
            [
                "Abalimi abasafufusa abangaphezu kwamakhulu amabili esifundazweni saKwaZulu-Natali bathole "
                "usizo lukahulumeni olubalelwa ezigidini zamarandi ukuze bathuthukise amapulazi abo.",
                "Usizo lubandakanya imbewu, umanyolo, amathuluzi okulima kanye nokuqeqeshwa ngezindlela "
                "zokulima ezinempilo nezilondoloza amanzi.",
                "“Manje sengikwazi ukulima umhlaba wonke futhi ngithengise imifino emakethe yendawo,” kusho "
                "omunye wabalimi baseMsinga.",
                "UMnyango wezoLimo uthi uhlelo luzoqhubeka nonyaka ozayo futhi luzofinyelela ezifundeni eziningi.",
            ],
        ),
        (
            "/bacha-ba-rupelletswa-tsebong-ya-dikhomphutha",
            "Bacha ba rupelletswa tsebong ya dikhomphutha",
            "Pule Mokoena",
            "2026-11-04T08:00:00+02:00",
            [
                "Bacha ba fetang lekgolo ba tswang metseng e fapaneng ya Foreisetata ba qetile thupelo ya "
                "dikgwedi tse tsheletseng tsebong ya dikhomphutha le tsa marang-rang.",
                "Thupelo ena e ne e tsamaiswa ke mmuso hammoho le dikhampani tse ding tsa poraefete, mme "
                "baithuti ba ne ba fumana tjhelete e nyane kgwedi le kgwedi.",
                "“Jwale ke kgona ho etsa kopo ya mosebetsi ke sebedisa khomphutha mme ke tseba ho ngola "
                "lengolo la kopo,” ho rialo e mong wa baithuti.",
                "Lefapha le re le tla tswela pele ka lenaneo lena selemong se tlang.",
            ],
        ),
        (
            "/new-clinics-bring-health-services-closer-to-rural-communities",
            "New clinics bring health services closer to rural communities",
            "More Matshediso",
            "2026-11-05T08:00:00+02:00",
            [
                "Five new clinics opened in rural Limpopo this month, bringing primary health care within "
                "walking distance for thousands of people who used to travel for hours.",
                "The clinics offer immunisation, chronic medication, maternal care and HIV testing, and each "
                "one is staffed by nurses who live in the surrounding villages.",
                "“I used to spend a whole day and two taxi fares to collect my blood pressure pills,” said "
                "a pensioner from Giyani who attended the opening of the clinic in her village.",
                "The Department of Health plans to open ten more clinics in the province next year.",
            ],
        ),
    ],
    "foodformzansi": [
        (
            "/young-farmer-turns-backyard-into-thriving-vegetable-business/",
            "Young farmer turns backyard into a thriving vegetable business",
            "Sinenhlanhla Mthembu",
            "2026-11-03T07:00:00+02:00",
            [
                "A 26-year-old farmer from Mthatha has turned a small backyard garden into a vegetable business "
                "that now supplies two supermarkets and a hospital kitchen.",
                "Asanda Mqwebu started with a few rows of spinach three years ago and now farms on two hectares "
                "of communal land that the local chief allocated to her.",
                "“Farming is a business like any other. You must know your market before you plant,” she said, "
                "adding that she now employs six people from her village.",
                "She plans to install drip irrigation next year to cope with the dry winters.",
            ],
        ),
        (
            "/maize-prices-expected-to-ease-after-good-rains/",
            "Maize prices expected to ease after good rains",
            "Duncan Masiwa",
            "2026-11-04T07:00:00+02:00",
            [
                "Maize prices are expected to ease in the coming months after good early rains in the main "
                "producing provinces, agricultural economists say.",
                "Farmers in the Free State and Mpumalanga have planted more than expected, and early crop "
                "estimates point to a harvest above last season's.",
                "Lower maize prices would bring some relief to households, for whom maize meal is the "
                "main staple, and to livestock farmers who buy feed.",
                "The Crop Estimates Committee will release its first estimate in February.",
            ],
        ),
    ],
}
