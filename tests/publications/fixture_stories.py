"""Synthetic stories for the per-publication fixture sites (all invented; see build_fixture_sites.py).

slug -> list of (url_path, headline, author, published ISO datetime, paragraphs).
"""

from __future__ import annotations

STORIES: dict[str, list[tuple[str, str, str, str, list[str]]]] = {
    "iol": [
        (
            "/news/south-africa/gauteng/pretoria-residents-march-over-potholes-4f1c2a9e-7b3d-4e51-9a0c-2d6e8f1b3c45",
            "Pretoria residents march to Tshwane House over potholes",
            "Karabo Ntuli",
            "2026-11-03T10:15:00+02:00",
            [
                "Hundreds of residents from Mamelodi and Eersterust marched to Tshwane House on Tuesday to hand over a memorandum about potholes and broken streetlights.",
                "Marchers said several roads had become impassable after the first summer storms and that taxis now refused to enter some streets.",
                "“We pay our rates and we get nothing back,” said community leader Dineo Mahlangu, who addressed the crowd outside the municipal offices.",
                "A city official accepted the memorandum and promised a response within 14 working days.",
            ],
        ),
        (
            "/business/economy/sugar-farmers-warn-of-job-losses-8a2b4c6d-1e3f-4a5b-8c7d-9e0f1a2b3c4d",
            "Sugar farmers warn of job losses as imports rise",
            "Mlungisi Cele",
            "2026-11-04T08:30:00+02:00",
            [
                "Small-scale sugar cane growers in KwaZulu-Natal have warned that thousands of jobs are at risk as cheap imported sugar floods the local market.",
                "The growers’ association said imports had risen by a third this year, pushing down the price mills pay for cane.",
                "“Many of our members farm fewer than ten hectares and cannot survive another season like this,” said association chair Sizwe Mkhize.",
                "The industry has asked the trade department to raise the import tariff on sugar before the next crushing season.",
            ],
        ),
    ],
    "mg": [
        (
            "/news/2026-11-03-inside-the-fight-over-a-limpopo-mine/",
            "Inside the fight over a Limpopo platinum mine",
            "Lwandile Fikeni",
            "2026-11-03T06:00:00+02:00",
            [
                "Villagers near Mokopane say a platinum mine expansion has cut them off from grazing land their families have used for generations.",
                "Documents seen by the Mail & Guardian show that the community’s traditional council signed a surface lease without holding the consultations the law requires.",
                "“Nobody asked us; we found out when the fences went up,” said Maria Langa, a 64-year-old cattle farmer.",
                "The mining company said it had followed all legal procedures and had set aside a community development fund.",
            ],
        ),
        (
            "/education/2026-11-05-universities-brace-for-funding-shortfall/",
            "Universities brace for a funding shortfall in 2027",
            "Bongekile Macupe",
            "2026-11-05T07:30:00+02:00",
            [
                "South Africa’s universities are preparing for a shortfall of almost R4 billion next year after the national treasury signalled cuts to the higher education budget.",
                "Vice-chancellors told parliament’s higher education committee that the cuts would mean fewer first-year places and larger classes.",
                "“We cannot keep doing more with less without the quality of degrees suffering,” said Universities South Africa chair Sizwe Mabizela.",
                "The student financial aid scheme said funding for existing students was protected.",
            ],
        ),
    ],
    "news24": [
        (
            "/news24/southafrica/news/joburg-fire-survivors-still-waiting-for-homes-20261103",
            "Joburg fire survivors still waiting for homes three years on",
            "Ntwaagae Seleka",
            "2026-11-03T05:00:00+02:00",
            [
                "Survivors of the deadly inner-city building fire in Marshalltown say they are still living in temporary shelters three years after the disaster.",
                "The City of Johannesburg had promised to move them into social housing within six months, but construction of the new units has stalled.",
                "“We were told this was temporary, but my children have grown up in this shelter,” said Nomsa Khoza.",
                "The city said a contractor had been appointed to complete the units by the middle of next year.",
            ],
        ),
        (
            "/news24/politics/parliament/mps-grill-police-minister-over-crime-stats-20261104",
            "MPs grill police minister over rising murder rate",
            "Jan Gerber",
            "2026-11-04T16:20:00+02:00",
            [
                "Members of parliament questioned the police minister for more than three hours on Tuesday about the latest crime statistics, which showed an increase in murders.",
                "More than 6,900 people were murdered in the three months from July to September, according to the figures.",
                "“These are not numbers, these are families destroyed,” said the chair of the police portfolio committee.",
                "The minister said additional detectives would be deployed to the ten police stations with the highest murder rates.",
            ],
        ),
    ],
    "dailymaverick": [
        (
            "/article/2026-11-03-how-a-small-town-fixed-its-own-water-supply/",
            "How a small town fixed its own water supply",
            "Tiisetso Motsoeneng",
            "2026-11-03T12:31:00+02:00",
            [
                "When the taps ran dry in Makhanda for the third time in a year, a group of retired engineers decided to stop waiting for the municipality.",
                "Working with the local business chamber, they repaired two boreholes and a pump station in four months, at a fraction of the cost quoted by contractors.",
                "“We had the skills sitting in this town; nobody had asked us to use them,” said Peter Smith, a former civil engineer.",
                "The municipality has since signed an agreement that lets the volunteers maintain the boreholes.",
            ],
        ),
        (
            "/article/2026-11-05-the-quiet-crisis-in-rural-clinics/",
            "The quiet crisis in rural clinics",
            "Estelle Ellis",
            "2026-11-05T09:02:00+02:00",
            [
                "In the hills of the Eastern Cape, clinics that serve tens of thousands of people often open without a single professional nurse on duty.",
                "Health workers say that medicine stockouts, broken ambulances and poor roads mean that patients with treatable illnesses arrive too late.",
                "“Sometimes a mother walks for three hours with a sick baby and finds the clinic closed,” said community health worker Nokuthula Jali.",
                "The provincial health department said it had appointed 200 nurses this year and was fixing access roads to 40 clinics.",
            ],
        ),
    ],
    "timeslive": [
        (
            "/news/south-africa/2026-11-03-court-hears-bail-bid-in-cash-in-transit-case/",
            "Court hears bail bid in cash-in-transit heist case",
            "Tania Mkhize",
            "2026-11-03T14:21:53+00:00",
            [
                "Five men accused of a cash-in-transit robbery on the N1 near Polokwane applied for bail in the Polokwane magistrate’s court on Monday.",
                "The state opposed bail, arguing that the accused had links to a syndicate responsible for at least six similar robberies this year.",
                "Defence lawyers said their clients had fixed addresses and families to support and would not evade trial.",
                "Magistrate Phindile Ndaba postponed the matter to Friday for judgment on the bail application.",
            ],
        ),
        (
            "/sport/rugby/2026-11-04-stormers-sign-young-flyhalf/",
            "Stormers sign promising young flyhalf from Western Province schools",
            "Liam del Carme",
            "2026-11-04T08:05:00+00:00",
            [
                "The Stormers have signed 19-year-old flyhalf Ethan Jacobs, who captained the Western Province under-18 side at this year’s Craven Week.",
                "Jacobs, a product of Paarl Gimnasium, has agreed to a three-year contract and will join the junior academy in January.",
                "“He has a calm head and a very good kicking game for his age,” said Stormers coach John Dobson.",
                "Several overseas clubs were reported to have shown interest in the player.",
            ],
        ),
    ],
    "citizen": [
        (
            "/news/south-africa/weather/hailstorm-damages-homes-in-ekurhuleni/",
            "Hailstorm damages hundreds of homes in Ekurhuleni",
            "Enkosi Selane",
            "2026-11-03T13:26:06+00:00",
            [
                "A severe hailstorm damaged roofs and windows of hundreds of homes in Tembisa and Kempton Park on Monday afternoon, Ekurhuleni disaster management said.",
                "Hailstones the size of golf balls fell for about 20 minutes, and several cars were damaged on the R21.",
                "“Our teams are assessing the damage and supplying plastic sheeting to residents whose roofs were destroyed,” said the metro’s spokesperson.",
                "The weather service warned of further severe thunderstorms over Gauteng for the rest of the week.",
            ],
        ),
        (
            "/sport/soccer/psl/chiefs-coach-under-pressure-after-derby-defeat/",
            "Chiefs coach under pressure after Soweto derby defeat",
            "Jonty Mark",
            "2026-11-04T18:40:00+00:00",
            [
                "Kaizer Chiefs supporters called for the coach to be fired after their side lost the Soweto derby 2-0 to Orlando Pirates on Saturday.",
                "Chiefs have won only two of their first eight league matches and sit tenth in the Betway Premiership table.",
                "“We know the supporters are angry, and we share their disappointment,” the coach said after the match.",
                "The club’s management is expected to meet this week to review the team’s performance.",
            ],
        ),
    ],
    "sowetanlive": [
        (
            "/news/south-africa/2026-11-03-soweto-residents-welcome-new-clinic/",
            "Soweto residents welcome new 24-hour clinic in Protea Glen",
            "Penwell Dlamini",
            "2026-11-03T09:00:00+00:00",
            [
                "Residents of Protea Glen in Soweto no longer have to travel to Chris Hani Baragwanath Hospital for after-hours care after a new 24-hour clinic opened on Monday.",
                "The clinic has a maternity unit, an emergency room and a pharmacy, and is expected to serve more than 100,000 people.",
                "“Before, we had to hire a car at night to take a sick child to hospital,” said resident Busisiwe Moloi.",
                "The Gauteng health department said the clinic would employ 85 health workers.",
            ],
        ),
        (
            "/entertainment/2026-11-04-amapiano-star-announces-stadium-show/",
            "Amapiano star announces first stadium show in Johannesburg",
            "Masego Seemela",
            "2026-11-04T11:30:00+00:00",
            [
                "Amapiano star DJ Lesedi has announced his first stadium concert, to be held at Orlando Stadium in December.",
                "The show will feature more than 20 artists and is expected to draw a crowd of 40,000.",
                "“Soweto is where it all started for me, so this show has to be here,” he said at the announcement.",
                "Tickets go on sale on Friday through the major ticketing outlets.",
            ],
        ),
    ],
    "dispatchlive": [
        (
            "/news/2026-11-03-east-london-beachfront-upgrade-delayed/",
            "East London beachfront upgrade delayed again",
            "Sino Majangaza",
            "2026-11-03T07:45:00+00:00",
            [
                "The long-awaited upgrade of the East London beachfront has been delayed again after the Buffalo City metro cancelled its contract with the main contractor.",
                "The project, which includes a new promenade and a water park, was supposed to be finished before the December holidays.",
                "“Holidaymakers will find a building site instead of a beachfront,” said a local business owner, Andile Jacobs.",
                "The metro said a new contractor would be appointed in January.",
            ],
        ),
        (
            "/news/2026-11-05-mthatha-dam-levels-rise-after-rains/",
            "Mthatha Dam levels rise after good rains",
            "Zine Qhali",
            "2026-11-05T10:10:00+00:00",
            [
                "Water levels at the Mthatha Dam have risen to 78% after heavy rain in the OR Tambo district over the past week.",
                "The dam had fallen below 40% in August, forcing the district municipality to introduce water restrictions.",
                "“The rain has given us breathing space, but residents must still use water sparingly,” said a municipal spokesperson.",
                "Restrictions will be reviewed at the end of the month.",
            ],
        ),
    ],
    "businesslive": [
        (
            "/bd/markets/2026-11-03-rand-firms-as-dollar-weakens/",
            "Rand firms as dollar weakens on US rate-cut bets",
            "Nicola Mawson",
            "2026-11-03T16:00:00+00:00",
            [
                "The rand firmed to its strongest level in three months on Monday as the dollar weakened on expectations that the US Federal Reserve would cut interest rates again.",
                "The local currency traded at R17.45 to the dollar in late trade, while bond yields fell across the curve.",
                "“Emerging-market currencies are benefiting from a broad risk-on mood,” said an analyst at a Johannesburg bank.",
                "Investors are now watching local inflation data due next week.",
            ],
        ),
        (
            "/bd/companies/mining/2026-11-04-coal-miner-cuts-output-as-rail-problems-persist/",
            "Coal miner cuts output as rail problems persist",
            "Kabelo Khumalo",
            "2026-11-04T07:20:00+00:00",
            [
                "A Mpumalanga coal miner has cut its production guidance for the year because rail deliveries to Richards Bay remain below target.",
                "The company said it had moved about 15% of its export volumes by truck, which is far more expensive than rail.",
                "“We cannot mine coal that we cannot get to port,” the chief executive told analysts.",
                "Its shares fell 4% on the JSE after the announcement.",
            ],
        ),
    ],
    "heraldlive": [
        (
            "/news/2026-11-03-gqeberha-water-crisis-eases/",
            "Gqeberha water crisis eases as Nooitgedacht scheme comes online",
            "Guy Rogers",
            "2026-11-03T08:15:00+00:00",
            [
                "Water supply to Gqeberha’s western suburbs has improved after the final phase of the Nooitgedacht water scheme came online.",
                "The scheme brings water from the Gariep Dam via the Orange-Fish river tunnel and can supply up to 210 megalitres a day.",
                "“For the first time in years, the western areas are getting a steady supply,” said a Nelson Mandela Bay official.",
                "Residents have been asked to keep saving water because supply dams remain low.",
            ],
        ),
        (
            "/sport/2026-11-04-kings-park-cricket-festival-returns/",
            "St George’s Park cricket festival returns in December",
            "George Byron",
            "2026-11-04T12:00:00+00:00",
            [
                "The annual schools cricket festival at St George’s Park will return in December after a two-year break.",
                "More than 60 teams from across the country are expected to take part.",
                "“It is a great platform for young cricketers to be seen by provincial selectors,” said the festival organiser.",
                "Matches will be played at 12 venues in Gqeberha.",
            ],
        ),
    ],
    "grocotts": [
        (
            "/2026/11/03/makhanda-potholes-volunteers-step-in/",
            "Volunteers step in to fill Makhanda potholes",
            "Sakhe Booi",
            "2026-11-03T11:00:00+02:00",
            [
                "A group of Makhanda residents has started filling potholes on High Street after waiting more than a year for the Makana municipality to act.",
                "The volunteers raised money from local businesses to buy cold asphalt and borrowed tools from a construction firm.",
                "“We are tired of our cars being damaged every day,” said volunteer Lindiwe Peter.",
                "The municipality said it welcomed community involvement but that it had a plan to repair the roads.",
            ],
        ),
        (
            "/2026/11/05/rhodes-students-launch-food-garden/",
            "Rhodes students launch food garden for Joza families",
            "Anele Mjoli",
            "2026-11-05T09:30:00+02:00",
            [
                "Students at Rhodes University have launched a food garden in Joza township that will supply vegetables to 50 families.",
                "The garden was planted on a vacant plot donated by a local church.",
                "“We want families to have fresh food and to learn how to grow it themselves,” said student organiser Ayanda Nkosi.",
                "The first harvest of spinach and cabbage is expected in January.",
            ],
        ),
    ],
    "sabc": [
        (
            "/sabcnews/parliament-passes-new-water-services-bill/",
            "Parliament passes new Water Services Amendment Bill",
            "Sherlyn Fortuin",
            "2026-11-03T15:45:00+02:00",
            [
                "The National Assembly has passed the Water Services Amendment Bill, which allows the national government to license water service providers.",
                "The bill aims to hold failing municipalities accountable for poor water quality and frequent outages.",
                "“Every South African deserves clean, safe water every day,” said the minister of water and sanitation.",
                "The bill now goes to the National Council of Provinces.",
            ],
        ),
        (
            "/sabcnews/limpopo-farmers-count-losses-after-hailstorm/",
            "Limpopo farmers count losses after hailstorm",
            "Tebogo Mahlaela",
            "2026-11-04T10:30:00+02:00",
            [
                "Farmers in the Tzaneen area of Limpopo are counting their losses after a hailstorm destroyed mango and avocado crops.",
                "Some farmers lost up to 60% of this season’s crop.",
                "“We had a very good season coming, and in 15 minutes it was gone,” said a farmer.",
                "The provincial agriculture department said it would assess the damage.",
            ],
        ),
    ],
    "groundup": [
        (
            "/article/khayelitsha-residents-demand-working-toilets/",
            "Khayelitsha residents demand working toilets",
            "Vincent Lali",
            "2026-11-03T13:00:00+02:00",
            [
                "Residents of an informal settlement in Khayelitsha marched to the civic centre on Monday to demand that the city fix broken communal toilets.",
                "They said 12 of the 20 toilets in the settlement had not worked for months, forcing people to relieve themselves in the bushes.",
                "“Women are afraid to go out at night,” said resident Nosipho Mxenge.",
                "The city said a contractor would repair the toilets within two weeks.",
            ],
        ),
        (
            "/article/farmworkers-win-wage-dispute-in-ceres/",
            "Farmworkers win wage dispute in Ceres",
            "Liezl Human",
            "2026-11-05T08:45:00+02:00",
            [
                "Seasonal farmworkers in Ceres have won a wage dispute after the CCMA ruled that a fruit farm had underpaid them for two harvest seasons.",
                "The farm must pay back wages of more than R600,000 to 85 workers.",
                "“We worked hard and we were cheated, but today justice was done,” said worker Elsie Koopman.",
                "The farm’s owner said he would comply with the ruling.",
            ],
        ),
    ],
    "thesouthafrican": [
        (
            "/news/south-africa/home-affairs-extends-office-hours-december/",
            "Home Affairs extends office hours for the festive season",
            "Cheryl Kahla",
            "2026-11-03T09:20:00+02:00",
            [
                "Home Affairs will extend the opening hours of 100 offices in December so that people can apply for passports and identity documents before the holidays.",
                "The offices will open until 19:00 on weekdays and on Saturday mornings.",
                "“We want to reduce queues and help families who plan to travel,” said a department spokesperson.",
                "Applicants are encouraged to book appointments online.",
            ],
        ),
        (
            "/sport/rugby/springboks/springbok-lock-signs-with-japanese-club/",
            "Springbok lock signs with a Japanese club",
            "Garrin Lambley",
            "2026-11-04T14:10:00+02:00",
            [
                "A Springbok lock has signed a two-year contract with a Japanese League One club, his agent confirmed on Tuesday.",
                "The player will join the club after the end-of-year tour and remains eligible for selection.",
                "“It is a great opportunity for me and my family,” the player said in a statement.",
                "Several Springboks now play in Japan between international windows.",
            ],
        ),
    ],
    "isolezwe": [
        (
            "/izindaba/abafundi-basethekwini-bathola-imifaniswano-8d2e4f6a-1b3c-4d5e-9f0a-1b2c3d4e5f60",
            "Abafundi baseThekwini bathola imifaniswano emisha",
            "Zanele Mthembu",
            "2026-11-03T09:00:00+02:00",
            [
                "Abafundi abangaphezu kwamakhulu amahlanu ezikoleni ezintathu zaseThekwini bathole imifaniswano emisha ngoMsombuluko.",
                "Lo mkhankaso uxhaswe ngabasebenzi bezinkampani ezimbalwa zasedolobheni abaqoqe imali izinyanga ezintathu.",
                "“Izingane eziningi bezifika esikoleni zigqoke izingubo ezidabukile,” kusho uthishanhloko, uNkk Thandeka Ngubane.",
                "Abazali bebonge kakhulu, bathi lokhu kuzobasiza ngesikhathi sezindleko zikaDisemba.",
            ],
        ),
        (
            "/ezemidlalo/amakhosi-ehlulwa-ngamagoli-amabili-c4a6b8d0-2e4f-4a6b-8c0d-2e4f6a8b0c1d",
            "AmaKhosi ehlulwa ngamagoli amabili eSoweto",
            "Sibusiso Ndlovu",
            "2026-11-04T20:30:00+02:00",
            [
                "IKaizer Chiefs yehlulwe ngamagoli amabili kuya kwalutho yi-Orlando Pirates emdlalweni weSoweto Derby ngoMgqibelo.",
                "Amagoli womabili ashaywe engxenyeni yesibili yomdlalo, kwathi abalandeli bamaKhosi bashiya inkundla bedangele.",
                "“Asidlalanga kahle namuhla, kufanele sisebenze kakhulu,” kusho umqeqeshi wamaKhosi.",
                "AmaKhosi manje asendaweni yeshumi kuhlelo lweligi.",
            ],
        ),
    ],
    "ilanga": [
        (
            "/umasipala-uthembisa-ukulungisa-imigwaqo-yasemlazi/",
            "Umasipala uthembisa ukulungisa imigwaqo yaseMlazi",
            "Bongani Zungu",
            "2026-11-03T10:00:00+02:00",
            [
                "UMasipala waseThekwini uthembise ukuthi uzolungisa imigwaqo eyonakele eMlazi ngaphambi kokuphela konyaka.",
                "Abahlali bakhala ngemigodi emikhulu emigwaqweni eyenza amatekisi ahlukane nezinye izindawo.",
                "“Sesikhathele ukuthenjiswa izinto ezingenzeki,” kusho omunye wabahlali, uMnu Mandla Khumalo.",
                "Umasipala uthe imali yokulungisa imigwaqo isibekiwe eceleni.",
            ],
        ),
        (
            "/abalimi-bakwazulu-natal-bajabule-ngezimvula/",
            "Abalimi bakwaZulu-Natal bajabule ngezimvula",
            "Nokwanda Shezi",
            "2026-11-05T08:00:00+02:00",
            [
                "Abalimi abancane esifundazweni saKwaZulu-Natal bathi izimvula ezine kuleli sonto zibanikeze ithemba lesivuno esihle.",
                "Abaningi bebesabe ukutshala ngenxa yesomiso esibe khona ekuqaleni konyaka.",
                "“Manje sesingatshala ummbila nobhontshisi,” kusho umlimi wase-Nkandla, uNkk Lindiwe Mchunu.",
                "UMnyango wezoLimo uthe uzosiza abalimi ngembewu nomanyolo.",
            ],
        ),
    ],
    "netwerk24": [
        (
            "/nuus/gesondheid/hospitale-in-vrystaat-kort-dringend-verpleegsters-20261103",
            "Hospitale in Vrystaat kort dringend verpleegsters",
            "Marietjie Louw",
            "2026-11-03T06:30:00+02:00",
            [
                "Openbare hospitale in die Vrystaat sit met meer as 700 vakante poste vir verpleegsters, het die provinsiale departement van gesondheid bevestig.",
                "Pasiënte by die Pelonomi-hospitaal in Bloemfontein moet soms tot twaalf uur wag om gehelp te word.",
                "“Ons personeel werk dubbelskofte, en hulle is uitgeput,” sê ’n senior verpleegster wat nie genoem wil word nie.",
                "Die departement sê 150 poste sal voor die einde van die jaar geadverteer word.",
            ],
        ),
        (
            "/sport/rugby/bulle-wen-naelbyt-teen-leinster-20261104",
            "Bulle wen naelbyt teen Leinster op Loftus",
            "Herman Pretorius",
            "2026-11-04T19:15:00+02:00",
            [
                "Die Bulle het Saterdag op Loftus Versfeld ’n naelbytwedstryd teen Leinster met 27-24 gewen.",
                "Die losskakel het die wenskop twee minute voor die einde oorgestuur.",
                "“Die manne het tot die laaste fluitjie geveg,” het die afrigter ná die wedstryd gesê.",
                "Die Bulle is nou tweede op die punteleer van die Verenigde Rugbykampioenskap.",
            ],
        ),
    ],
    "thenewage": [
        (
            "/news/article/4512/bloemfontein-library-extends-hours",
            "Bloemfontein library extends its opening hours for exam season",
            "Lerato Molefe",
            "2013-05-09T11:40:00+02:00",
            [
                "The public library in Bloemfontein’s city centre will stay open until 9pm on weekdays during the exam season, the Mangaung metro announced on Thursday.",
                "Matric pupils had asked for the change because many of them had no quiet place to study at home and no electricity in the evenings.",
                "“We saw queues at the door every afternoon, so the decision was easy,” said the metro’s head of libraries, Dikeledi Mofokeng.",
                "Security guards will escort pupils to the taxi rank after closing time, the metro said.",
            ],
        ),
    ],
    "demo": [
        (
            "/news/2026/11/harbour-crane-upgrade",
            "Harbour cranes to be replaced before the holiday rush",
            "Anele Dube",
            "2026-11-02T09:10:00+02:00",
            [
                "The port authority will replace four ageing cranes at the container terminal before the December holiday season, it said on Monday.",
                "Shipping lines had complained that breakdowns of the old cranes kept vessels waiting at anchor for up to five days.",
                "“The new cranes move twice as many containers an hour,” said terminal manager Sibusiso Ntanzi.",
                "The first two cranes arrive by sea next week and will be assembled on the quay.",
            ],
        ),
    ],
}

# the publications added with eNCA, Moneyweb, the Daily Sun, The Witness, the IOL titles, Maroela Media,
# Vuk'uzenzele and Food For Mzansi
from fixture_stories_za import STORIES_ZA  # noqa: E402

STORIES.update(STORIES_ZA)
