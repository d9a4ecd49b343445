"""Hand-written paragraphs (written for these tests, not taken from any data set).

Each says roughly "The minister said the government will spend more money on schools in the
Eastern Cape next year. Parents and teachers welcomed the news." in one language.
"""

from __future__ import annotations

SA_PARAGRAPHS = {
    "af": "Die minister het gesê dat die regering volgende jaar meer geld aan skole in die Oos-Kaap sal "
    "bestee. Ouers en onderwysers verwelkom die nuus.",
    "en": "The minister said the government would spend more money on schools in the Eastern Cape next "
    "year. Parents and teachers welcomed the news.",
    "zu": "Ungqongqoshe uthe uhulumeni uzochitha imali eningi ezikoleni zaseMpumalanga Kapa ngonyaka "
    "ozayo. Abazali nothisha bazamukele lezi zindaba.",
    "xh": "Umphathiswa uthe urhulumente uza kuchitha imali eninzi kwizikolo zaseMpuma Koloni kunyaka "
    "ozayo. Abazali nootitshala bazamkele ezi ndaba.",
    "nr": "Ungqongqotjhe uthe urhulumende uzokusebenzisa imali enengi ezikolweni zeKapa leMpumalanga "
    "ngomnyaka ozako. Ababelethi nabotitjhere bazamukele iindaba lezi.",
    "nso": "Tona o boletše gore mmušo o tla šomiša tšhelete ye ntši dikolong tša Kapa Bohlabela ngwageng "
    "wo o tlago. Batswadi le barutiši ba amogetše ditaba tše.",
    "st": "Letona le itse mmuso o tla sebedisa tjhelete e ngata dikolong tsa Kapa Botjhabela selemong se "
    "tlang. Batswadi le matitjhere ba amohetse ditaba tsena.",
    "tn": "Tona o rile puso e tla dirisa madi a mantsi mo dikolong tsa Kapa Botlhaba ngwaga o o tlang. "
    "Batsadi le barutabana ba amogetse dikgang tseno.",
    "ts": "Holobye u vule leswaku mfumo wu ta tirhisa mali yo tala eswikolweni swa Kapa Vuxa hi lembe "
    "leri taka. Vatswari na vadyondzisi va amukele mahungu lawa.",
    "ss": "Ngcongcoshe utsite hulumende utawusebentisa imali lenyenti etikolweni taseKapa lesiMpumalanga "
    "ngemnyaka lotako. Batali nabothishela bayemukele letindzaba.",
    "ve": "Minisita o ri muvhuso u ḓo shumisa tshelede nnzhi zwikoloni zwa Kapa Vhubvaḓuvha ṅwaha u ḓaho. "
    "Vhabebi na vhadededzi vho ṱanganedza mafhungo aya.",
}

OTHER_PARAGRAPHS = {
    "de": "Der Minister sagte, die Regierung werde im nächsten Jahr mehr Geld für Schulen ausgeben. "
    "Eltern und Lehrer begrüßten die Nachricht.",
    "ja": "大臣は、政府が来年、学校により多くの予算を使うと述べた。保護者と教師はこの知らせを歓迎した。",
    "nl": "De minister zei dat de regering volgend jaar meer geld aan scholen gaat uitgeven. Ouders en "
    "leraren verwelkomden het nieuws.",
    "fr": "Le ministre a déclaré que le gouvernement dépenserait davantage pour les écoles l'année "
    "prochaine. Les parents ont salué la nouvelle.",
    "sw": "Waziri alisema serikali itatumia pesa zaidi kwa shule mwaka ujao. Wazazi na walimu "
    "walikaribisha habari hiyo.",
}
